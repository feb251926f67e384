import { csvHeader, csvRow, type Cell } from "./csv";
import { jsonArray } from "./json";
import type { ExportSession } from "./session";

/**
 * The `screening` dataset: the study's safety screen (lib/screening), its
 * latest run, one row per answer x rule that matched: the rule as run (name,
 * kind, pattern), the answer (item, model, repetition), the matches and the
 * excerpt. Unblinded (model names): for leads. Who ran it is in the audit.
 */
export const SCREENING_HEADER = ["run_id", "ran_at", "action", "item_id", "model", "model_version", "repetition", "rule", "rule_kind", "rule_pattern", "matches", "excerpt"] as const;

type Row = Record<(typeof SCREENING_HEADER)[number], Cell>;

const SQL = `
WITH run AS (SELECT id, "createdAt", action, rules FROM "ScreenRun" WHERE "studyId" = $1::uuid ORDER BY "createdAt" DESC, id DESC LIMIT 1)
SELECT run.id AS run_id, run."createdAt" AS ran_at, lower(run.action::text) AS action, q."externalId" AS item_id, m.name AS model, m.version AS model_version,
       r.repetition, run.rules -> h.rule ->> 'name' AS rule, run.rules -> h.rule ->> 'kind' AS rule_kind, run.rules -> h.rule ->> 'pattern' AS rule_pattern,
       h.matches, h.excerpt
FROM run
JOIN "ScreenHit" h ON h."runId" = run.id
JOIN "Response" r ON r.id = h."responseId"
JOIN "ResponseSet" rs ON rs.id = r."responseSetId"
JOIN "QaItem" q ON q.id = rs."itemId"
JOIN "LlmModel" m ON m.id = rs."modelId"
ORDER BY q."externalId" COLLATE "C", m.name COLLATE "C", r.repetition, h.rule`;

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
