import { mentionTerms, termPattern, wordRegExp } from "@/lib/blinding/terms";

/**
 * Answers that name a model can unblind graders: in a real study 145 of 150
 * answers of one system named its own database. After an import (or its dry
 * run) the study's answers are scanned, in the import's own transaction, for
 * the study's model names and versions and the words the lead adds; the lead
 * sees how many answers of each model name one, with examples, before
 * committing, and may redact them (lib/import/redaction.ts).
 */

export interface MentionExample {
  itemId: string;
  repetition: number;
  /** The term found, as written in the answer. */
  found: string;
  /** Up to 60 characters either side of it. */
  excerpt: string;
}

export interface ModelMentions {
  /** Answers naming any term, over the whole study. */
  answers: number;
  terms: string[];
  byModel: { model: string; answers: number; examples: MentionExample[] }[];
}

export const MAX_EXTRA_TERMS = 20;
const EXAMPLES_PER_MODEL = 3;

export function excerptOf(text: string, terms: readonly string[]): { found: string; excerpt: string } | null {
  for (const term of terms) {
    const m = wordRegExp(term).exec(text);
    if (!m) continue;
    const at = m.index;
    const start = Math.max(0, at - 60);
    const end = Math.min(text.length, at + m[0].length + 60);
    return { found: m[0], excerpt: `${start > 0 ? "…" : ""}${text.slice(start, end).replace(/\s+/g, " ")}${end < text.length ? "…" : ""}` };
  }
  return null;
}

type Query = (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;

/** Scans the study's answers (as the caller's transaction sees them). */
export async function scanModelMentions(query: Query, studyId: string, extraTerms: readonly string[] = []): Promise<ModelMentions> {
  const models = (await query(`SELECT name, version FROM "LlmModel" WHERE "studyId" = $1::uuid`, [studyId])).rows as { name: string; version: string | null }[];
  const terms = mentionTerms(models, extraTerms);
  if (terms.length === 0) return { answers: 0, terms, byModel: [] };
  const sql = `
    WITH hit AS (
      SELECT r.text, r.repetition, q."externalId" AS "itemId", m.name AS model,
             row_number() OVER (PARTITION BY m.id ORDER BY q."externalId", r.repetition) AS n
      FROM "Response" r
      JOIN "ResponseSet" rs ON rs.id = r."responseSetId"
      JOIN "QaItem" q ON q.id = rs."itemId"
      JOIN "LlmModel" m ON m.id = rs."modelId"
      WHERE rs."studyId" = $1::uuid AND r.text ~* ANY($2::text[]))
    SELECT model, count(*)::int AS answers,
           json_agg(json_build_object('itemId', "itemId", 'repetition', repetition, 'text', text) ORDER BY n) FILTER (WHERE n <= $3) AS examples
    FROM hit GROUP BY model ORDER BY count(*) DESC, model`;
  const { rows } = (await query(sql, [studyId, terms.map(termPattern), EXAMPLES_PER_MODEL])) as {
    rows: { model: string; answers: number; examples: { itemId: string; repetition: number; text: string }[] | null }[];
  };
  return {
    answers: rows.reduce((s, r) => s + r.answers, 0),
    terms,
    byModel: rows.map((r) => ({
      model: r.model,
      answers: r.answers,
      examples: (r.examples ?? []).flatMap((e) => {
        const x = excerptOf(e.text, terms);
        return x ? [{ itemId: e.itemId, repetition: e.repetition, ...x }] : [];
      }),
    })),
  };
}
