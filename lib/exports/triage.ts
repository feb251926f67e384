import { triageReport } from "@/lib/governance/service";
import { csvHeader, csvRow } from "./csv";
import { jsonArray } from "./json";

/**
 * The `triage` dataset: every final set's stability triage (lib/governance)
 * under the study's rule, and the lead's decision with its note. The report
 * is computed as the governance page shows it.
 */
export const TRIAGE_HEADER = [
  "set_id",
  "item_id",
  "specialty",
  "model",
  "drift",
  "contradiction_flags",
  "graders",
  "verdict",
  "mutual_rouge_l",
  "read_from",
  "read_from_kind",
  "decision",
  "decision_note",
  "decided_at",
  "accept_at_most",
  "review_at_most",
  "review_at_flags",
  "reject_at_flags",
] as const;

export interface TriageRecord {
  set_id: string;
  item_id: string;
  specialty: string;
  model: string;
  drift: number | null;
  /** Graders (submitted work) who flagged the set's answers as contradicting each other, of `graders`. */
  contradiction_flags: number;
  graders: number;
  verdict: string | null;
  mutual_rouge_l: number | null;
  read_from: string | null;
  read_from_kind: string | null;
  decision: string | null;
  decision_note: string | null;
  decided_at: string | null;
  accept_at_most: number;
  review_at_most: number;
  review_at_flags: number | null;
  reject_at_flags: number | null;
}

const round4 = (x: number | null) => (x === null ? null : Math.round(x * 10_000) / 10_000);

export async function triageRecords(studyId: string): Promise<TriageRecord[]> {
  const report = await triageReport(studyId);
  return report.sets.map((s) => ({
    set_id: s.setId,
    item_id: s.itemId,
    specialty: s.specialty,
    model: s.model,
    drift: round4(s.drift),
    contradiction_flags: s.contradictions,
    graders: s.graders,
    verdict: s.verdict,
    mutual_rouge_l: round4(s.mutualRougeL),
    read_from: s.sources[0] ? `${s.sources[0].rubric}/${s.sources[0].dimension}` : null,
    read_from_kind: s.sources[0]?.kind ?? null,
    decision: s.decision?.decision.toLowerCase() ?? null,
    decision_note: s.decision?.note ?? null,
    decided_at: s.decision?.decidedAt ?? null,
    accept_at_most: report.rule.acceptAtMost,
    review_at_most: report.rule.reviewAtMost,
    review_at_flags: report.rule.reviewAtFlags,
    reject_at_flags: report.rule.rejectAtFlags,
  }));
}

export async function* triageChunks(studyId: string, format: "csv" | "json"): AsyncGenerator<string> {
  const records = await triageRecords(studyId);
  if (format === "json") {
    yield* jsonArray([records]);
    return;
  }
  yield csvHeader(TRIAGE_HEADER);
  yield records.map((r) => csvRow(TRIAGE_HEADER.map((k) => r[k]))).join("");
}
