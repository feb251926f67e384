import type { Metadata } from "next";
import { parseTableParams } from "@/lib/tables/search-params";
import { ComparisonEscalationsTable } from "@/components/escalation/comparison-escalations-table";
import { EscalationsTable } from "@/components/escalation/escalations-table";
import { getDb } from "@/lib/db/client";
import { escalationPageQuerySchema, pageOf } from "@/lib/escalation/list-params";
import { listEscalations } from "@/lib/escalation/queries";
import { listComparisonEscalations } from "@/lib/pairwise/escalation-queries";
import { itemSpecialties } from "@/lib/studies/items";
import { loadStudyForPage } from "@/lib/studies/page-access";

export const metadata: Metadata = { title: "Escalations" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function EscalationsPage({ params, searchParams }: Props) {
  const { id } = await params;
  const { study } = await loadStudyForPage(id);
  const { data: q } = parseTableParams(escalationPageQuerySchema, await searchParams);
  const [all, specialties, graders] = await Promise.all([
    listEscalations(study.id, { status: q.status, specialty: q.specialty }),
    itemSpecialties(study.id),
    getDb().studyMember.findMany({
      where: { studyId: study.id, role: "GRADER", active: true, user: { active: true } },
      select: { user: { select: { id: true, name: true } } },
      orderBy: { user: { name: "asc" } },
    }),
  ]);
  if (study.design === "PAIRWISE") {
    return (
      <div className="flex flex-col gap-4">
        <p className="max-w-3xl text-sm text-muted-foreground">
          A comparison escalates when its primary graders prefer opposite answers on an axis (a tie against a preference counts as agreement unless the study says otherwise).
          A third grader, chosen automatically among eligible graders with the least open work, compares the two answers blind; the final preference is the majority.
          Graders appear under pseudonyms.
        </p>
        <ComparisonEscalationsTable rows={await listComparisonEscalations(study.id, { status: q.status, specialty: q.specialty })} graders={graders.map((g) => g.user)} />
      </div>
    );
  }
  const key = { externalId: (r: (typeof all)[number]) => r.externalId, specialty: (r: (typeof all)[number]) => r.specialty, status: (r: (typeof all)[number]) => r.status, age: (r: (typeof all)[number]) => r.ageHours };
  const page = pageOf(all, key[q.sort.replace(/^-/, "") as keyof typeof key], q.sort, q.page, q.pageSize);
  return (
    <div className="flex flex-col gap-4">
      <p className="max-w-3xl text-sm text-muted-foreground">
        A set escalates when its primary graders differ by at least the study&apos;s threshold on any dimension (on a dimension
        graded on each answer, each grader&apos;s mean over the {study.repetitions} answers). A third grader, chosen automatically among eligible graders with
        the least open work, grades the whole set blind; the final score is then the mean of all three. Graders appear under pseudonyms.
      </p>
      <EscalationsTable page={page} sort={q.sort} specialties={specialties} graders={graders.map((g) => g.user)} />
    </div>
  );
}
