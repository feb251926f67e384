/**
 * Journal statistics of a study (issue #17, item 3), per rubric, for every dimension and every
 * total: how the primary graders agree (pairwise Cohen's kappa under both weight conventions,
 * Kendall's W with and without tie correction, the ICC the design supports, Krippendorff's alpha
 * with a bootstrap interval) and how the models compare (descriptives, Friedman, Wilcoxon
 * post-hoc with Holm, Cliff's delta with Bonferroni-level intervals). Pure: lib/stats does the
 * arithmetic; dimensions, levels and totals come from the rubric documents.
 */
import type { RubricDocument } from "@/lib/rubrics/document";
import type { SetResult } from "@/lib/results/sets";
import { totalRange } from "@/lib/scoring/rubric-values";
import {
  cliffsDeltaFamily,
  descriptives,
  friedmanTest,
  icc,
  kendallW,
  krippendorffAlphaBootstrapCI,
  pairwiseCohenKappa,
  wilcoxonPosthoc,
  type KappaConvention,
  type KappaWeights,
} from "@/lib/stats";
import { dimensionMatrix, iccTypesFor, nominalMatrix, type PrimarySet } from "./agreement";
import type { JournalAgreement, JournalComparison, JournalKappaMatrix, JournalKendallW, JournalModelDescriptives, JournalRubric } from "./types";

export const JOURNAL_NOTE =
  "Each figure states its convention and n. Kappa: pairwise between primary graders on the units both rated, quadratic weights on ordinal scales (unweighted on nominal ones), " +
  "95% interval from the Fleiss-Cohen-Everitt large-sample standard error; 'ranks' weighs the ranks of the values the two graders used (scikit-learn cohen_kappa_score), " +
  "'scale' the distances between values on the rubric's declared scale. Kendall's W: units rated by every grader column, average ranks. " +
  "Model comparison: items scored for every model (Friedman), Wilcoxon signed-rank post-hoc tests as R wilcox.test (exact below 50 pairs without ties or zeros, else normal with continuity correction), Holm-adjusted.";

export const JOURNAL_ON_REQUEST = "The journal statistics are computed on request: add journal=1 to the query.";

/** Beyond this many graders the k(k-1)/2 kappa pairs would swamp the answer; alpha summarises them. */
export const MAX_KAPPA_RATERS = 40;

export const JOURNAL_BOOTSTRAP = { resamples: 1000, seed: 1, level: 0.95 } as const;

const KAPPA_CONVENTIONS: Record<KappaConvention, string> = {
  ranks: "weights on the ranks of the values observed for the pair (scikit-learn cohen_kappa_score, no labels)",
  scale: "weights on the distances between values of the declared scale (statsmodels cohens_kappa with the levels as weights)",
};

interface Target {
  target: "dimension" | "total";
  key: string;
  label: string;
  kind: "ordinal" | "nominal";
  unit: "set" | "answer";
  /** Rows = units, columns = the set's primaries (grader-id order). */
  rows: (number | null)[][];
  /** The grader id of each column, per row. */
  graders: string[][];
  /** The declared scale for the "scale" convention (ordinal levels; a total's range as integers when it is whole). */
  categories?: number[];
}

/** Spread a slot matrix into one column per grader (kappa pairs are between graders, not slots). */
function byGrader(t: Target): { raters: string[]; rows: (number | null)[][] } {
  const raters = [...new Set(t.graders.flat())].sort();
  const col = new Map(raters.map((g, i) => [g, i]));
  const rows = t.rows.map((row, i) => {
    const out = new Array<number | null>(raters.length).fill(null);
    row.forEach((v, j) => {
      out[col.get(t.graders[i][j])!] = v;
    });
    return out;
  });
  return { raters, rows };
}

function kappaMatrix(rows: (number | null)[][], raters: string[], weights: KappaWeights, convention: KappaConvention, categories?: number[]): JournalKappaMatrix {
  const r = pairwiseCohenKappa(rows, { weights, convention, categories: convention === "scale" ? categories : undefined });
  return {
    convention: KAPPA_CONVENTIONS[convention],
    pairs: r.pairs.map((p) => ({ a: raters[p.a], b: raters[p.b], value: p.kappa, ci: p.ci ?? null, n: p.n, reason: p.kappa === null ? (p.reason ?? "undefined") : null })),
    matrix: r.matrix,
  };
}

function kendall(rows: (number | null)[][], tieCorrection: boolean): JournalKendallW {
  const w = kendallW(rows, { tieCorrection });
  return {
    convention: tieCorrection
      ? "W = 12S / (m^2 (n^3 - n) - m sum(t^3 - t)), tie-corrected (R irr::kendall correct = TRUE); chi-square m (n - 1) W on n - 1 df"
      : "W = 12S / (m^2 (n^3 - n)) on average ranks, no tie correction (the published-study convention); chi-square m (n - 1) W on n - 1 df",
    value: w.w,
    chiSquare: w.chiSquare,
    df: w.df,
    p: w.p,
    n: w.n,
    reason: w.w === null ? (w.reason ?? "undefined") : null,
  };
}

const ICC_WHY: Record<"pool" | "crossed", string> = {
  crossed: "Two-way random effects, absolute agreement (McGraw-Wong ICC(A,1) and ICC(A,k)): the same graders rated every unit (fully crossed).",
  pool: "One-way random effects (ICC(1,1) and ICC(1,k)): units were rated by different graders drawn from a pool, so no rater effect common to all units can be separated.",
};

function agreementOf(t: Target, design: "pool" | "crossed", boot: { resamples: number; seed: number; level: number }): JournalAgreement {
  const units = t.rows.filter((r) => r.filter((v) => v !== null).length >= 2).length;
  const { raters, rows: perGrader } = byGrader(t);
  const ordinal = t.kind === "ordinal";
  const weights: KappaWeights = ordinal ? "quadratic" : "none";
  const level = t.kind === "nominal" ? "nominal" : t.target === "total" ? "interval" : "ordinal";
  const ka = krippendorffAlphaBootstrapCI(t.rows, { level }, boot);
  const out: JournalAgreement = {
    target: t.target,
    key: t.key,
    label: t.label,
    kind: t.kind,
    unit: t.unit,
    units,
    raters,
    weights,
    kappa:
      raters.length > MAX_KAPPA_RATERS
        ? null
        : { ranks: kappaMatrix(perGrader, raters, weights, "ranks"), scale: kappaMatrix(perGrader, raters, weights, "scale", t.categories) },
    kendallW: null,
    icc: null,
    krippendorff: {
      level,
      convention: `Krippendorff's alpha (${level}); ${Math.round(boot.level * 100)}% percentile bootstrap over units, ${boot.resamples} resamples, seed ${boot.seed}`,
      value: ka.estimate,
      ci: ka.ci,
      units: ka.units,
      reason: ka.estimate === null ? (ka.reason ?? "undefined") : ka.ci === null ? (ka.reason ?? null) : null,
    },
    note: ordinal ? null : "Nominal scale: categories have no order, so kappa is unweighted and there is no Kendall's W or ICC.",
  };
  if (out.kappa === null) {
    const why = `${raters.length} graders: the ${(raters.length * (raters.length - 1)) / 2} pairwise kappas are not listed (more than ${MAX_KAPPA_RATERS} graders); Krippendorff's alpha summarises their agreement.`;
    out.note = out.note ? `${out.note} ${why}` : why;
  }
  if (!ordinal) return out;
  out.kendallW = { uncorrected: kendall(t.rows, false), corrected: kendall(t.rows, true) };
  const { average, single } = iccTypesFor(design);
  const a = icc(t.rows, { type: average });
  const s = icc(t.rows, { type: single });
  const name = (x: string) => (x === "ICC1" ? "ICC(1,1)" : x === "ICC1k" ? "ICC(1,k)" : x === "ICC2" ? "ICC(A,1) = ICC(2,1)" : "ICC(A,k) = ICC(2,k)");
  out.icc = {
    type: average as "ICC1k" | "ICC2k",
    label: name(average),
    why: ICC_WHY[design],
    value: a.icc,
    ci: a.ci,
    n: a.n,
    reason: a.icc === null ? (a.reason ?? "undefined") : null,
    single: { type: single as "ICC1" | "ICC2", label: name(single), value: s.icc, ci: s.ci, n: s.n, reason: s.icc === null ? (s.reason ?? "undefined") : null },
  };
  return out;
}

/** The agreement targets of a rubric: its ordinal and nominal dimensions, then its totals. */
function targetsOf(sets: PrimarySet[], r: RubricDocument, n: number): Target[] {
  const out: Target[] = [];
  const gradersOf = (s: PrimarySet, rows: number) => Array.from({ length: rows }, () => s.graderIds);
  for (const d of r.dimensions) {
    if (d.scale.kind !== "ordinal" && d.scale.kind !== "nominal") continue;
    const rows: (number | null)[][] = [];
    const graders: string[][] = [];
    let unit: "set" | "answer" = "set";
    for (const s of sets) {
      const m = d.scale.kind === "ordinal" ? dimensionMatrix([s], r, d.key, n) : nominalMatrix([s], r, d.key, n);
      unit = m.unit;
      rows.push(...m.rows);
      graders.push(...gradersOf(s, m.rows.length));
    }
    const categories = d.scale.kind === "ordinal" ? (d.scale.levels ?? []).map((l) => Number(l.value)) : undefined;
    out.push({ target: "dimension", key: d.key, label: d.name, kind: d.scale.kind, unit, rows, graders, categories });
  }
  for (const t of r.totals) {
    const rows = sets.map((s) => (s.totals ?? []).map((g) => g[r.key]?.[t.key] ?? null));
    const graders = sets.map((s) => s.graderIds);
    const { min, max } = totalRange(r, t);
    const whole = rows.flat().every((v) => v === null || Number.isInteger(v));
    const categories = whole && Number.isInteger(min) && Number.isInteger(max) && max - min <= 1000 ? Array.from({ length: max - min + 1 }, (_, i) => min + i) : undefined;
    out.push({ target: "total", key: t.key, label: t.name, kind: "ordinal", unit: "set", rows, graders, categories });
  }
  return out;
}

/** Model comparison of one dimension or total over the final sets: rows = items, columns = models. */
function comparisonOf(
  target: "dimension" | "total",
  key: string,
  label: string,
  finals: SetResult[],
  models: string[],
  value: (s: SetResult) => number | null,
  boot: { resamples: number; seed: number; level: number } | null,
): JournalComparison {
  const items = [...new Set(finals.map((s) => s.itemId))].sort();
  const row = new Map(items.map((id, i) => [id, i]));
  const col = new Map(models.map((m, j) => [m, j]));
  const matrix = items.map(() => new Array<number | null>(models.length).fill(null));
  for (const s of finals) {
    const j = col.get(s.model.name);
    if (j !== undefined) matrix[row.get(s.itemId)!][j] = value(s);
  }
  const column = (j: number) => matrix.map((r) => r[j]);
  const f = friedmanTest(matrix);
  const post = wilcoxonPosthoc(matrix, { adjust: "holm" });
  const pairs = post.pairs.map((p) => ({
    a: models[p.a],
    b: models[p.b],
    statistic: p.statistic,
    p: p.p,
    pHolm: p.pAdjusted,
    method: p.method,
    n: p.n,
    zeros: p.zeros,
    reason: p.p === null ? (p.reason ?? "undefined") : null,
  }));
  let cliffs: JournalComparison["cliffs"] = null;
  if (boot && models.length >= 2) {
    const fam = cliffsDeltaFamily(
      post.pairs.map((p) => ({ x: column(p.a), y: column(p.b), p: p.p })),
      { adjust: "holm", resamples: boot.resamples, seed: boot.seed, level: boot.level },
    );
    cliffs = {
      convention: `Cliff's delta, positive = the first model's scores tend to be higher; percentile bootstrap intervals at the Bonferroni level 1 - alpha/m that goes with Holm (m = ${fam.m}), family level ${boot.level}`,
      familyLevel: fam.familyLevel,
      intervalLevel: fam.intervalLevel,
      resamples: boot.resamples,
      seed: boot.seed,
      pairs: fam.comparisons.map((c, i) => ({ a: models[post.pairs[i].a], b: models[post.pairs[i].b], delta: c.delta, ci: c.ci, n: c.n, m: c.m, reason: c.delta === null ? (c.reason ?? "undefined") : null })),
    };
  }
  const describeModel = (model: string, values: (number | null)[]): JournalModelDescriptives => {
    const d = descriptives(values);
    return { model, n: d.n, mean: d.mean, sd: d.sd, median: d.median, q1: d.q1, q3: d.q3, iqr: d.iqr };
  };
  // The same matrix's rows, by the questions' specialty (a question has one).
  const rowsBySpecialty = new Map<string, number[]>();
  const seen = new Set<string>();
  for (const s of finals) {
    if (seen.has(s.itemId)) continue;
    seen.add(s.itemId);
    const rows = rowsBySpecialty.get(s.specialty) ?? rowsBySpecialty.set(s.specialty, []).get(s.specialty)!;
    rows.push(row.get(s.itemId)!);
  }
  return {
    target,
    key,
    label,
    descriptives: models.map((model, j) => describeModel(model, column(j))),
    bySpecialty: [...rowsBySpecialty.keys()]
      .sort((a, b) => a.localeCompare(b))
      .map((specialty) => {
        const rows = rowsBySpecialty.get(specialty)!;
        return { specialty, descriptives: models.map((model, j) => describeModel(model, rows.map((i) => matrix[i][j]))) };
      }),
    friedman: {
      convention: "R friedman.test: items scored for every model, ranks within item, tie-corrected chi-square on k - 1 df; Kendall's W = chi-square / (n (k - 1))",
      chiSquare: f.chiSquare,
      df: f.df,
      p: f.p,
      kendallW: f.kendallW,
      n: f.n,
      reason: f.chiSquare === null ? (f.reason ?? "undefined") : null,
    },
    posthoc: { convention: "Wilcoxon signed-rank (R wilcox.test paired defaults: zeros dropped, exact below 50 pairs without ties, else normal with continuity correction), Holm-adjusted over all pairs", pairs },
    cliffs,
  };
}

/**
 * Every rubric's journal figures. Cliff's delta intervals are bootstrapped for the totals only:
 * on every dimension too the cost grows with dimensions x model pairs x resamples, and the
 * totals are what the papers report with intervals. `parts: "models"` leaves the agreement half out
 * (empty `agreement` lists); the comparisons are the same.
 */
export function journalRubrics(
  sets: PrimarySet[],
  finals: SetResult[],
  rubrics: readonly RubricDocument[],
  n: number,
  design: "pool" | "crossed",
  boot: { resamples: number; seed: number; level: number } = JOURNAL_BOOTSTRAP,
  parts: "all" | "models" = "all",
): JournalRubric[] {
  const models = [...new Set(finals.map((s) => s.model.name))].sort();
  return rubrics.map((r) => {
    // "models": the model comparison alone (the study report's tables); the agreement half's kappa matrices and bootstraps are most of the block's cost.
    const agreement = parts === "models" ? [] : targetsOf(sets, r, n).map((t) => agreementOf(t, design, boot));
    const comparisons: JournalComparison[] = [];
    for (const d of r.dimensions) {
      if (d.scale.kind !== "ordinal") continue;
      comparisons.push(
        comparisonOf("dimension", d.key, d.name, finals, models, (s) => {
          const v = s.finalScores?.[r.key]?.[d.key];
          return typeof v === "number" ? v : null;
        }, null),
      );
    }
    for (const t of r.totals) {
      comparisons.push(comparisonOf("total", t.key, t.name, finals, models, (s) => s.totals?.[r.key]?.[t.key] ?? null, boot));
    }
    return { rubric: r.key, agreement, models: comparisons };
  });
}
