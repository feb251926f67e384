import { graderQualityReport } from "@/lib/grader-quality/compute";
import { loadQuality } from "@/lib/grader-quality/load";
import type { Prisma } from "@/lib/generated/prisma/client";
import { csvHeader, csvRow } from "./csv";
import { jsonArray } from "./json";
import type { People } from "./people";
import type { ExportSession } from "./session";

/**
 * The `grader-quality` dataset: the Graders' quality table (lib/grader-quality), one row per
 * grader, read in the export's snapshot. Graders appear as their per-study pseudonym unless
 * identities are exported; the exclusion's reason is free text and goes through the CSV
 * formula guard as every cell does.
 */
export const GRADER_QUALITY_HEADER = [
  "grader",
  "grader_name",
  "excluded",
  "excluded_at",
  "excluded_reason",
  "sets",
  "time_median_ms",
  "time_ratio_to_study_median",
  "time_n",
  "straight_lining_share",
  "straight_lining_n",
  "scale_use_share",
  "scale_use_n",
  "bias_points",
  "bias_ci_low",
  "bias_ci_high",
  "bias_n_cells",
  "bias_n_sets",
  "ac2_vs_peers",
  "ac2_n_pairs",
  "gold_accuracy",
  "intra_rater",
] as const;

type Row = Record<(typeof GRADER_QUALITY_HEADER)[number], string | number | boolean | null>;

export async function graderQualityRecords(session: ExportSession, studyId: string, people: People, identities: boolean): Promise<Row[]> {
  const db = { rows: <T,>(s: Prisma.Sql) => session.query(s.text, s.values as unknown[]) as Promise<T[]> };
  const loaded = await loadQuality(db, studyId);
  if (!loaded) return [];
  const report = graderQualityReport(studyId, loaded.layout, loaded.graders, loaded.work, loaded.tasks);
  // Where the study has no gold grades or re-grades yet, the columns say so rather than being empty.
  const pending = "not collected in this study";
  const notCollected = new Set(report.notCollected.map((p) => p.signal));
  // Intra-rater per dimension in one cell: kappa and ICC(3,1) with the cells graded twice.
  const intra = (g: (typeof report.graders)[number]) =>
    g.intraRater.byDimension.map((d) => `${d.dimension}: kappa ${d.kappa ?? "NA"}, ICC ${d.icc ?? "NA"}, n ${d.n}`).join("; ") || null;
  return report.graders.map((g) => ({
    grader: people.get(g.graderId)?.pseudonym ?? g.graderId,
    grader_name: identities ? g.name : null,
    excluded: g.excluded !== null,
    excluded_at: g.excluded?.at ?? null,
    excluded_reason: g.excluded?.reason ?? null,
    sets: g.sets,
    time_median_ms: g.time.medianMs,
    time_ratio_to_study_median: g.time.ratio,
    time_n: g.time.n,
    straight_lining_share: g.straightLining.share,
    straight_lining_n: g.straightLining.n,
    scale_use_share: g.scaleUse.share,
    scale_use_n: g.scaleUse.n,
    bias_points: g.bias.estimate,
    bias_ci_low: g.bias.ci?.[0] ?? null,
    bias_ci_high: g.bias.ci?.[1] ?? null,
    bias_n_cells: g.bias.n,
    bias_n_sets: g.bias.sets,
    ac2_vs_peers: g.agreement.ac2,
    ac2_n_pairs: g.agreement.n,
    gold_accuracy: notCollected.has("goldAccuracy") ? pending : g.gold.accuracy,
    intra_rater: notCollected.has("intraRater") ? pending : intra(g),
  }));
}

export async function* graderQualityChunks(session: ExportSession, studyId: string, people: People, identities: boolean, format: "csv" | "json"): AsyncGenerator<string> {
  const records = await graderQualityRecords(session, studyId, people, identities);
  if (format === "json") {
    yield* jsonArray([records]);
    return;
  }
  yield csvHeader(GRADER_QUALITY_HEADER);
  yield records.map((r) => csvRow(GRADER_QUALITY_HEADER.map((k) => r[k]))).join("");
}
