import type { z } from "zod";
import { pageOf, type resultPageQuerySchema } from "@/lib/escalation/list-params";
import { computeSetResults, harmFlaggedSetIds, SET_COLUMN_SORTS, setResultsPage, type SetColumnSort, type SetResult } from "./sets";

const isColumnSort = (key: string): key is SetColumnSort => key in SET_COLUMN_SORTS;

/**
 * A set's final value in a score column of the Results tab: `t.<rubric>.<total>`
 * (a total) or `d.<rubric>.<dimension>` (a dimension: a number, a nominal
 * level's value); null when the set has none or it is N/A.
 */
export function scoreColumnValue(r: SetResult, column: string): number | string | null {
  const [kind, rubric, key] = column.split(".");
  if (kind === "t") return r.totals?.[rubric]?.[key] ?? null;
  const v = r.finalScores?.[rubric]?.[key];
  return v === undefined || v === "N/A" ? null : v;
}

/** Whether a set's final value of `<rubric>.<dimension>` is the level asked for (`na`: N/A). */
function matchesFinal(r: SetResult, final: string): boolean {
  const [at, value] = final.split("=");
  const [rubric, key] = at.split(".");
  const v = r.finalScores?.[rubric]?.[key];
  if (value === "na") return v === "N/A";
  return v !== undefined && String(v) === value;
}

/**
 * One page of the Results tab. Sorted by one of the set's own columns (no
 * filter on a final value), the page is chosen in SQL and only its sets'
 * scores are read; sorted by a score column or filtered on a final value,
 * every set's final scores must be computed first (sets without one last).
 */
export async function resultsTablePage(studyId: string, q: z.output<typeof resultPageQuerySchema>) {
  const key = q.sort.replace(/^-/, "");
  if (isColumnSort(key) && !q.final) return setResultsPage(studyId, { ...q, sort: key, desc: q.sort.startsWith("-") });
  const [all, flagged] = await Promise.all([computeSetResults(studyId, { status: q.status }), q.harm ? harmFlaggedSetIds(studyId) : null]);
  const rows = all.filter((r) => (!q.specialty || r.specialty === q.specialty) && (!flagged || flagged.has(r.id)) && (!q.final || matchesFinal(r, q.final)));
  const sortKey = isColumnSort(key) ? COLUMN_KEYS[key] : (r: SetResult) => scoreColumnValue(r, key);
  return pageOf(rows, sortKey, q.sort, q.page, q.pageSize);
}

/** The set's own columns, for the in-memory path (a filter on a final value). */
const COLUMN_KEYS: Record<SetColumnSort, (r: SetResult) => string> = {
  externalId: (r) => r.externalId,
  specialty: (r) => r.specialty,
  model: (r) => r.model.name,
  status: (r) => r.status,
};
