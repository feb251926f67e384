import { getPool } from "@/lib/db/client";
import { bleuFromStats } from "@/lib/stats/bleu";

/**
 * The reference-based metrics per model and specialty (and per model over all specialties):
 * the mean of each answer's sentence BLEU, ROUGE-1 and ROUGE-L, and corpus BLEU of the model's
 * answers (sacreBLEU's corpus_bleu: n-gram statistics summed over the answers, 'exp' smoothing,
 * no effective order), all 0-1. Only answers whose question has a reference answer count.
 */
export interface ReferenceMetricsRow {
  model: string;
  /** null: every specialty together. */
  specialty: string | null;
  answers: number;
  bleu: number;
  rouge1: number;
  rougeL: number;
  corpusBleu: number;
  /** Mean embedding similarity (cosine, -1 to 1; lib/embeddings) of the answers that have one; null when none has. */
  embeddingSimilarity: number | null;
  embeddingAnswers: number;
}

export async function referenceMetricsSummary(studyId: string): Promise<ReferenceMetricsRow[]> {
  const sums = Array.from({ length: 10 }, (_, i) => `sum(r."bleuStats"[${i + 1}])::float8`).join(", ");
  const { rows } = await getPool().query<{ model: string; specialty: string | null; answers: number; bleu: number; rouge1: number; rougeL: number; embeddingSimilarity: number | null; embeddingAnswers: number; stats: number[] }>(
    `SELECT m.name AS model, sp.name AS specialty, count(*)::int AS answers,
            avg(r.bleu) AS bleu, avg(r.rouge1) AS rouge1, avg(r."rougeL") AS "rougeL",
            avg(r."embeddingSimilarity") AS "embeddingSimilarity", count(r."embeddingSimilarity")::int AS "embeddingAnswers", ARRAY[${sums}] AS stats
       FROM "Response" r
       JOIN "ResponseSet" rs ON rs.id = r."responseSetId"
       JOIN "LlmModel" m ON m.id = rs."modelId"
       JOIN "QaItem" q ON q.id = rs."itemId"
       JOIN "Specialty" sp ON sp.id = q."specialtyId"
      WHERE rs."studyId" = $1::uuid AND r.bleu IS NOT NULL
      GROUP BY GROUPING SETS ((m.name, sp.name), (m.name))
      ORDER BY m.name, sp.name NULLS FIRST`,
    [studyId],
  );
  return rows.map((r) => {
    const [hypLen, refLen, ...rest] = r.stats;
    const corpusBleu = bleuFromStats({ hypLen, refLen, correct: rest.slice(0, 4), total: rest.slice(4, 8) }, false);
    return { model: r.model, specialty: r.specialty, answers: r.answers, bleu: r.bleu, rouge1: r.rouge1, rougeL: r.rougeL, corpusBleu, embeddingSimilarity: r.embeddingSimilarity, embeddingAnswers: r.embeddingAnswers };
  });
}
