import { csvHeader, csvRow, type Cell } from "./csv";
import { jsonArray } from "./json";
import type { ExportSession } from "./session";

/**
 * The `screening` dataset: the study's safety screen (lib/screening), its
 * latest finished run, one row per answer x rule that matched: the rule as
 * run (name, kind, pattern), the answer (item, model, repetition), the
 * matches and the excerpt; then one row per answer its automated judge
 * flagged (judge_verdict "flagged", rule_kind "judge", the judge's reason) or
 * could not screen (judge_verdict "could_not_screen", the error). Answers the
 * judge cleared are not rows. Unblinded (model names): for leads. Who ran it
 * is in the audit.
 */
export const SCREENING_HEADER = [
  "run_id",
  "ran_at",
  "action",
  "item_id",
  "model",
  "model_version",
  "repetition",
  "rule",
  "rule_kind",
  "rule_pattern",
  "matches",
  "excerpt",
  "judge_verdict",
  "judge_reason",
] as const;

type Row = Record<(typeof SCREENING_HEADER)[number], Cell>;

const SQL = `
WITH run AS (SELECT id, "createdAt", action, rules, judge FROM "ScreenRun" WHERE "studyId" = $1::uuid AND status = 'DONE' ORDER BY "createdAt" DESC, id DESC LIMIT 1),
found AS (
  SELECT h."responseId", h.rule, run.rules -> h.rule ->> 'name' AS name, run.rules -> h.rule ->> 'kind' AS kind, run.rules -> h.rule ->> 'pattern' AS pattern,
         h.matches, h.excerpt, NULL::text AS verdict, NULL::text AS reason
  FROM run JOIN "ScreenHit" h ON h."runId" = run.id
  UNION ALL
  SELECT v."responseId", NULL, 'Automated judge (' || (run.judge ->> 'endpoint') || ')', 'judge', NULL, NULL, NULL,
         CASE WHEN v.flagged THEN 'flagged' ELSE 'could_not_screen' END, v.reason
  FROM run JOIN "ScreenVerdict" v ON v."runId" = run.id WHERE v.flagged IS NOT FALSE)
SELECT run.id AS run_id, run."createdAt" AS ran_at, lower(run.action::text) AS action, q."externalId" AS item_id, m.name AS model, m.version AS model_version,
       r.repetition, f.name AS rule, f.kind AS rule_kind, f.pattern AS rule_pattern, f.matches, f.excerpt, f.verdict AS judge_verdict, f.reason AS judge_reason
FROM run
CROSS JOIN found f
JOIN "Response" r ON r.id = f."responseId"
JOIN "ResponseSet" rs ON rs.id = r."responseSetId"
JOIN "QaItem" q ON q.id = rs."itemId"
JOIN "LlmModel" m ON m.id = rs."modelId"
ORDER BY q."externalId" COLLATE "C", m.name COLLATE "C", r.repetition, f.rule NULLS LAST`;

async function* rows(session: ExportSession, studyId: string): AsyncGenerator<Row[]> {
  for await (const batch of session.cursor<Omit<Row, "ran_at"> & { ran_at: Date }>(SQL, [studyId])) {
    yield batch.map((r) => ({ ...r, ran_at: r.ran_at.toISOString() }));
  }
}

export async function* screeningChunks(session: ExportSession, studyId: string, format: "csv" | "json"): AsyncGenerator<string> {
  if (format === "json") return yield* jsonArray(rows(session, studyId));
  yield csvHeader(SCREENING_HEADER);
  for await (const batch of rows(session, studyId)) {
    if (batch.length) yield batch.map((r) => csvRow(SCREENING_HEADER.map((k) => r[k]))).join("");
  }
}
