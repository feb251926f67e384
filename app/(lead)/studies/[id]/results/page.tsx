import type { Metadata } from "next";
import { parseTableParams } from "@/components/data-table/search-params";
import { ResultsTable } from "@/components/results/results-table";
import { pageOf, resultPageQuerySchema } from "@/lib/escalation/list-params";
import { computeSetResults, type SetResult } from "@/lib/results/sets";
import { itemSpecialties } from "@/lib/studies/items";
import { loadStudyForPage } from "@/lib/studies/page-access";

export const metadata: Metadata = { title: "Results per set" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const KEYS: Record<string, (r: SetResult) => string | number | null> = {
  externalId: (r) => r.externalId,
  specialty: (r) => r.specialty,
  model: (r) => r.model.name,
  status: (r) => r.status,
  score: (r) => r.totals?.SCORE?.total ?? null,
  safe: (r) => r.totals?.SAFE_LLM?.perAnswer ?? null,
};

export default async function ResultsPage({ params, searchParams }: Props) {
  const { id } = await params;
  const { study } = await loadStudyForPage(id);
  const { data: q } = parseTableParams(resultPageQuerySchema, await searchParams);
  const [all, specialties] = await Promise.all([computeSetResults(study.id, { status: q.status }), itemSpecialties(study.id)]);
  const rows = q.specialty ? all.filter((r) => r.specialty === q.specialty) : all;
  const page = pageOf(rows, KEYS[q.sort.replace(/^-/, "")], q.sort, q.page, q.pageSize);
  return (
    <div className="flex flex-col gap-4">
      <p className="max-w-3xl text-sm text-muted-foreground">
        Final scores exist once a set is agreed (its primary graders within the thresholds) or adjudicated (a third grader has graded it): per
        dimension, the mean over all its graders. S.C.O.R.E. totals are out of 25; SAFE-LLM out of 7, both per answer (mean over the{" "}
        {study.repetitions} answers) and overall (best answer); the study&apos;s headline is {study.safeLlmScoring === "OVERALL" ? "overall" : "per answer"}.
        Hover a S.C.O.R.E. total for its dimensions.
      </p>
      <ResultsTable page={page} sort={q.sort} specialties={specialties} rubrics={study.rubrics} />
    </div>
  );
}
