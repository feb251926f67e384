import type { Metadata } from "next";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { describeTotals } from "@/lib/scoring/final-scores";
import { parseTableParams } from "@/lib/tables/search-params";
import { ResultsTable } from "@/components/results/results-table";
import { resultPageQuerySchema } from "@/lib/escalation/list-params";
import { resultsTablePage } from "@/lib/results/table";
import { itemSpecialties } from "@/lib/studies/items";
import { loadStudyForPage } from "@/lib/studies/page-access";

export const metadata: Metadata = { title: "Results per set" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ResultsPage({ params, searchParams }: Props) {
  const { id } = await params;
  const { study } = await loadStudyForPage(id);
  const { data: q } = parseTableParams(resultPageQuerySchema, await searchParams);
  const rubrics = storedRubrics(study.rubrics);
  const [page, specialties] = await Promise.all([resultsTablePage(study.id, q), itemSpecialties(study.id)]);
  return (
    <div className="flex flex-col gap-4">
      <p className="max-w-3xl text-sm text-muted-foreground">
        Final scores exist once a set is agreed (its primary graders within the thresholds) or adjudicated (a third grader has graded it): per
        dimension, the mean over all its graders (a nominal dimension: the level most graders chose), a dimension graded on each answer as its
        value over the {study.repetitions} answers; a total, the mean of the graders&apos; totals ({describeTotals({ rubrics, safeLlmScoring: study.safeLlmScoring })}). Every column sorts; a nominal level or N/A can be
        filtered on. Open an item for each grader&apos;s scores and the final value of each answer.
      </p>
      <ResultsTable studyId={study.id} page={page} sort={q.sort} specialties={specialties} rubrics={rubrics} />
    </div>
  );
}
