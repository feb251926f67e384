import type { z } from "zod";
import { pageOf, type resultPageQuerySchema } from "@/lib/escalation/list-params";
import { computeSetResults, harmFlaggedSetIds, SET_COLUMN_SORTS, setResultsPage, type SetColumnSort, type SetResult } from "./sets";

/** The totals a results table can sort by; they exist only once a set's scores are read. */
const TOTALS: Record<string, (r: SetResult) => number | null> = {
  score: (r) => r.totals?.SCORE?.total ?? null,
  safe: (r) => r.totals?.SAFE_LLM?.perAnswer ?? null,
  // The headline of the study's first rubric that is neither of the two above.
  total: (r) => Object.entries(r.totals ?? {}).find(([k]) => k !== "SCORE" && k !== "SAFE_LLM")?.[1]?.headline ?? null,
};
const isColumnSort = (key: string): key is SetColumnSort => key in SET_COLUMN_SORTS;

/**
 * One page of the Results tab. Sorted by one of the set's own columns, the
 * page is chosen in SQL and only its sets' scores are read; sorted by a total,
 * every set's final scores must be computed first (sets without one last).
 */
export async function resultsTablePage(studyId: string, q: z.output<typeof resultPageQuerySchema>) {
  const key = q.sort.replace(/^-/, "");
  if (isColumnSort(key)) return setResultsPage(studyId, { ...q, sort: key, desc: q.sort.startsWith("-") });
  const [all, flagged] = await Promise.all([computeSetResults(studyId, { status: q.status }), q.harm ? harmFlaggedSetIds(studyId) : null]);
  const rows = all.filter((r) => (!q.specialty || r.specialty === q.specialty) && (!flagged || flagged.has(r.id)));
  return pageOf(rows, TOTALS[key], q.sort, q.page, q.pageSize);
}
