import type { Metadata } from "next";
import { parseTableParams } from "@/lib/tables/search-params";
import { HarmFlagsTable } from "@/components/harm/harm-flags-table";
import { harmPageQuerySchema } from "@/components/harm/list-params";
import { pageOf } from "@/lib/escalation/list-params";
import { listHarmFlags } from "@/lib/harm/service";
import { loadStudyForPage } from "@/lib/studies/page-access";

export const metadata: Metadata = { title: "Harm flags" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function HarmFlagsPage({ params, searchParams }: Props) {
  const { id } = await params;
  const { study } = await loadStudyForPage(id);
  const { data: q } = parseTableParams(harmPageQuerySchema, await searchParams);
  const all = await listHarmFlags(study.id, { review: q.review });
  const key = { externalId: (r: (typeof all)[number]) => r.externalId, grader: (r: (typeof all)[number]) => r.grader, flaggedAt: (r: (typeof all)[number]) => r.flaggedAt };
  const page = pageOf(all, key[q.sort.replace(/^-/, "") as keyof typeof key], q.sort, q.page, q.pageSize);
  return (
    <div className="flex flex-col gap-4">
      <p className="max-w-3xl text-sm text-muted-foreground">
        Graders flag an answer that could harm a patient, and are told that you review every flag. Each flag below comes with the
        grader&apos;s reason and scores (graders appear under pseudonyms); a flag in a draft is shown before it is submitted.
        Acknowledge or resolve each one with a note of what was done: every review is kept in the audit log.
      </p>
      <HarmFlagsTable studyId={study.id} page={page} sort={q.sort} />
    </div>
  );
}
