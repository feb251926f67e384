/**
 * A judge against the clinician panel (paper 002), per dimension and total,
 * next to the clinicians' own agreement as the ceiling. Pure: the loader
 * (./load.ts) gives the final sets with each grader's values and the judge's
 * cells.
 *
 * The unit is the response set: the judge's value of a dimension is computed
 * from its cells exactly as a grader's is (lib/scoring/study-values), and the
 * panel's is the set's final score (lib/scoring/final-scores). Agreement
 * coefficients (AC2, kappa, exact) round both half-up to the scale; ICC,
 * Spearman and Bland-Altman use them unrounded (the paper's convention for
 * the expected score).
 */
import type { RubricDimension, RubricDocument } from "@/lib/rubrics/document";
import type { GraderRubricValues } from "@/lib/scoring/escalation";
import type { GraderTotals } from "@/lib/scoring/final-scores";
import { headlineOf } from "@/lib/scoring/final-scores";
import type { DimensionValue } from "@/lib/scoring/rubric-values";
import { graderRubricScores, type StoredCell } from "@/lib/scoring/study-values";
import { bootstrapCI, blandAltman, classification, cohenKappa, deferralCurve, gwetAC1, gwetAC2, icc, kendallTau, roundHalfUp, spearman, type RatingMatrix } from "@/lib/stats";
import type { DeferralRow, Figure, JudgeComparison, JudgeDimensionRow, JudgeRanking, JudgeTotalRow, LengthBias, Reading, VsClinician } from "./types";

export const JUDGES_NOTE =
  "Each judge against the panel's final score per response set (agreed or adjudicated sets; sets whose final score is the judge's own, in hybrid mode, are left out). " +
  "Two readings when the judge gave probabilities: the most probable level (ties to the lower) and the expected score (sum of level x probability). " +
  "AC2 (quadratic; AC1 for nominal), weighted kappa and exact agreement round both sides half-up to the scale; ICC, Spearman and Bland-Altman use them unrounded. " +
  "Ceiling: each clinician against the mean of the other graders of the same sets. Difference: the judge's AC2 minus the clinician's, against the same other graders, paired bootstrap over sets (1,000 resamples).";

export interface PanelSet {
  id: string;
  model: string;
  finalValues: Record<string, Record<string, DimensionValue>>;
  finalTotals: Record<string, Record<string, number | null>>;
  /** Submitted graders of the set (primaries and adjudicator). */
  graders: { id: string; values: GraderRubricValues }[];
  /** Characters of the answers the rubric reads (mean over the set's answers). */
  length: number | null;
}

export interface JudgeCell extends StoredCell {
  setId: string;
  expectedScore: number | null;
  confidence: number | null;
  hasProbabilities: boolean;
}

export interface CompareInput {
  study: { rubrics: readonly RubricDocument[]; repetitions: number; safeLlmScoring: "PER_ANSWER" | "OVERALL" };
  judge: JudgeComparison["judge"];
  hybrid: JudgeComparison["hybrid"];
  sets: readonly PanelSet[];
  cells: readonly JudgeCell[];
  graderNames: ReadonlyMap<string, string>;
  resamples?: number;
}

const fig = (value: number | null | undefined, n: number, reason?: string | null, ci?: [number, number] | null): Figure => ({
  value: value ?? null,
  ci: value === null || value === undefined ? null : (ci ?? null),
  n,
  reason: value === null || value === undefined ? (reason ?? "not computable") : null,
});
const num = (v: DimensionValue): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const str = (v: DimensionValue): string | null => (typeof v === "string" && v !== "N/A" ? v : null);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The majority of nominal values, or null on a tie. */
function majority(xs: string[]): string | null {
  const c = new Map<string, number>();
  for (const x of xs) c.set(x, (c.get(x) ?? 0) + 1);
  const top = Math.max(...c.values());
  const winners = [...c].filter(([, k]) => k === top);
  return winners.length === 1 ? winners[0][0] : null;
}

interface DimScale {
  d: RubricDimension;
  levels: (number | string)[];
  nominal: boolean;
  /** The value a coefficient sees: the rounded score, or the nominal level's place. */
  code: (v: number | string) => number | null;
}

function scaleOf(d: RubricDimension): DimScale {
  const levels = (d.scale.levels ?? []).map((l) => l.value);
  const nominal = d.scale.kind === "nominal";
  const numbers = levels as number[];
  const [lo, hi] = [Math.min(...numbers), Math.max(...numbers)];
  return {
    d,
    levels,
    nominal,
    code: nominal ? (v) => (levels.indexOf(v) >= 0 ? levels.indexOf(v) : null) : (v) => (typeof v === "number" ? Math.min(hi, Math.max(lo, roundHalfUp(v))) : null),
  };
}

/** AC2 (quadratic) or, for nominal, AC1 of code pairs. */
function agreementOf(s: DimScale, pairs: ReadonlyArray<readonly [number, number]>): number | null {
  if (pairs.length === 0) return null;
  const categories = s.nominal ? s.levels.map((_, i) => i) : (s.levels as number[]);
  return (s.nominal ? gwetAC1(pairs as unknown as RatingMatrix, { categories }) : gwetAC2(pairs as unknown as RatingMatrix, { categories })).coefficient;
}
function kappaOf(s: DimScale, pairs: ReadonlyArray<readonly [number, number]>) {
  const categories = s.nominal ? s.levels.map((_, i) => i) : (s.levels as number[]);
  return cohenKappa(pairs as unknown as RatingMatrix, { categories, weights: s.nominal ? "none" : "quadratic" });
}

export function compareJudge(input: CompareInput): JudgeComparison {
  const { study, sets, cells } = input;
  const n = study.repetitions;
  const resamples = input.resamples ?? 1000;
  const bySet = new Map<string, JudgeCell[]>();
  for (const c of cells) (bySet.get(c.setId) ?? bySet.set(c.setId, []).get(c.setId)!).push(c);
  const readings: Reading[] = cells.some((c) => c.expectedScore !== null) ? ["most_probable", "expected"] : ["most_probable"];
  // The judge as a grader, once per reading.
  const judged = new Map<Reading, Map<string, { values: GraderRubricValues; totals: GraderTotals }>>();
  for (const reading of readings) {
    const m = new Map<string, { values: GraderRubricValues; totals: GraderTotals }>();
    for (const s of sets) {
      const own = bySet.get(s.id);
      if (!own) continue;
      const table = reading === "expected" ? own.map((c) => (c.expectedScore !== null ? { ...c, score: c.expectedScore } : c)) : own;
      m.set(s.id, graderRubricScores(study.rubrics, table, n));
    }
    judged.set(reading, m);
  }
  const out: JudgeComparison = {
    judge: input.judge,
    hybrid: input.hybrid,
    judgments: cells.length,
    withProbabilities: cells.filter((c) => c.hasProbabilities).length,
    dimensions: [],
    totals: [],
    ranking: [],
    lengthBias: [],
    deferral: [],
  };

  for (const doc of study.rubrics) {
    for (const d of doc.dimensions) {
      if (d.scale.kind === "criteria") continue;
      const s = scaleOf(d);
      const value = (v: DimensionValue) => (s.nominal ? str(v) : num(v));
      // The expected-score reading only where the judge gave probabilities on this dimension:
      // elsewhere it is the most probable reading again, a duplicate row.
      const expected = !s.nominal && cells.some((c) => c.rubric === doc.key && c.dimension === d.key && c.expectedScore !== null);
      for (const reading of readings) {
        if (reading === "expected" && !expected) continue;
        const mine = judged.get(reading)!;
        const units: { set: PanelSet; j: number | string; p: number | string }[] = [];
        for (const set of sets) {
          const j = value(mine.get(set.id)?.values[doc.key]?.[d.key]);
          const p = value(set.finalValues[doc.key]?.[d.key]);
          if (j !== null && p !== null) units.push({ set, j, p });
        }
        out.dimensions.push(dimensionRow(doc, s, reading, units, input, value, resamples));
      }
      out.deferral.push(deferralRow(doc, s, sets, bySet, judged.get("most_probable")!, value));
    }
    const rubricExpected = cells.some((c) => c.rubric === doc.key && c.expectedScore !== null);
    for (const reading of readings) {
      if (reading === "expected" && !rubricExpected) continue;
      const mine = judged.get(reading)!;
      for (const t of doc.totals) {
        const pairs = sets.map((set) => [mine.get(set.id)?.totals[doc.key]?.[t.key] ?? null, set.finalTotals[doc.key]?.[t.key] ?? null] as const).filter(([a, b]) => a !== null && b !== null) as [number, number][];
        out.totals.push(totalRow(doc.key, t.key, t.name, reading, pairs));
      }
      const headline = headlineOf(doc, study);
      if (headline === undefined) continue;
      const both = sets
        .map((set) => ({ set, j: mine.get(set.id)?.totals[doc.key]?.[headline] ?? null, p: set.finalTotals[doc.key]?.[headline] ?? null }))
        .filter((u): u is { set: PanelSet; j: number; p: number } => u.j !== null && u.p !== null);
      out.ranking.push(rankingOf(doc.key, headline, reading, both));
      const withLength = both.filter((u) => u.set.length !== null);
      const lengths = withLength.map((u) => u.set.length);
      const sj = spearman(lengths, withLength.map((u) => u.j));
      const sp = spearman(lengths, withLength.map((u) => u.p));
      out.lengthBias.push({ rubric: doc.key, total: headline, reading, judge: fig(sj.rho, sj.n, sj.reason), panel: fig(sp.rho, sp.n, sp.reason) } satisfies LengthBias);
    }
  }
  return out;
}

function dimensionRow(
  doc: RubricDocument,
  s: DimScale,
  reading: Reading,
  units: { set: PanelSet; j: number | string; p: number | string }[],
  input: CompareInput,
  value: (v: DimensionValue) => number | string | null,
  resamples: number,
): JudgeDimensionRow {
  const n = units.length;
  const coded = units.map((u) => [s.code(u.j), s.code(u.p)] as const).filter(([a, b]) => a !== null && b !== null) as [number, number][];
  const ac2 = agreementOf(s, coded);
  const kappa = kappaOf(s, coded);
  const exact = coded.length ? coded.filter(([a, b]) => a === b).length / coded.length : null;
  const numeric = !s.nominal;
  const raw = numeric ? (units.map((u) => [u.j, u.p]) as [number, number][]) : [];
  const i3 = numeric ? icc(raw, { type: "ICC3k" }) : null;
  const i21 = numeric ? icc(raw, { type: "ICC2" }) : null;
  const sp = numeric ? spearman(raw.map((r) => r[0]), raw.map((r) => r[1])) : null;
  const ba = numeric ? blandAltman(raw.map((r) => r[0]), raw.map((r) => r[1])) : null;
  const labels = s.nominal ? s.levels : s.levels;
  const cls = classification(
    coded.map(([, p]) => labels[s.nominal ? p : (s.levels as number[]).indexOf(p)]),
    coded.map(([j]) => labels[s.nominal ? j : (s.levels as number[]).indexOf(j)]),
    labels,
  );
  const notOrdinal = "only for ordinal dimensions";

  // Each clinician: the judge against them; and both against the set's other graders.
  const clinicianIds = [...new Set(units.flatMap((u) => u.set.graders.map((g) => g.id)))].sort();
  const clinicians: VsClinician[] = clinicianIds.map((gid) => {
    const rows: [number, number, number | null][] = [];
    for (const u of units) {
      const g = u.set.graders.find((x) => x.id === gid);
      if (!g) continue;
      const c = value(g.values[doc.key]?.[s.d.key]);
      const j = s.code(u.j);
      if (c === null || j === null) continue;
      const cc = s.code(c);
      if (cc === null) continue;
      rows.push([j, cc, othersCode(s, u.set, gid, doc.key, value)]);
    }
    const pairs = rows.map(([j, c]) => [j, c] as const);
    const k = kappaOf(s, pairs);
    const triples = rows.filter((r) => r[2] !== null) as [number, number, number][];
    const diff = bootstrapCI(
      (sample: [number, number, number][]) => {
        const a = agreementOf(s, sample.map(([j, , o]) => [j, o] as const));
        const b = agreementOf(s, sample.map(([, c, o]) => [c, o] as const));
        return a === null || b === null ? null : a - b;
      },
      triples,
      { resamples, seed: 1 },
    );
    return {
      grader: { id: gid, name: input.graderNames.get(gid) ?? "grader" },
      ac2: fig(agreementOf(s, pairs), pairs.length, "no set graded by both"),
      kappa: fig(k.kappa, k.n, k.reason),
      difference: fig(diff.estimate, triples.length, diff.reason ?? (triples.length ? null : "no set with another grader"), diff.ci),
    };
  });
  const ceilingPairs: [number, number][] = [];
  for (const u of units) {
    for (const g of u.set.graders) {
      const c = value(g.values[doc.key]?.[s.d.key]);
      const cc = c === null ? null : s.code(c);
      const o = othersCode(s, u.set, g.id, doc.key, value);
      if (cc !== null && o !== null) ceilingPairs.push([cc, o]);
    }
  }
  const ck = kappaOf(s, ceilingPairs);
  return {
    rubric: doc.key,
    dimension: s.d.key,
    label: s.d.name,
    kind: s.nominal ? "nominal" : "ordinal",
    reading,
    n,
    ac2: fig(ac2, coded.length, n ? "no variation to compare" : "no final set with the judge's score"),
    kappa: fig(kappa.kappa, kappa.n, kappa.reason),
    exact: fig(exact, coded.length, "no final set with the judge's score"),
    icc3k: i3 ? fig(i3.icc, i3.n, i3.reason, i3.ci) : fig(null, 0, notOrdinal),
    icc21: i21 ? fig(i21.icc, i21.n, i21.reason, i21.ci) : fig(null, 0, notOrdinal),
    spearman: sp ? fig(sp.rho, sp.n, sp.reason) : fig(null, 0, notOrdinal),
    blandAltman: ba ? { bias: ba.bias, limits: ba.limits, n: ba.n, reason: ba.reason ?? null } : { bias: null, limits: null, n: 0, reason: notOrdinal },
    confusion: cls.n ? { labels: cls.matrix.labels, counts: cls.matrix.counts } : null,
    macroF1: s.nominal || s.levels.length === 2 ? fig(cls.macroF1, cls.n, cls.reason) : null,
    clinicians,
    ceiling: { ac2: fig(agreementOf(s, ceilingPairs), ceilingPairs.length, "no set with two graders"), kappa: fig(ck.kappa, ck.n, ck.reason) },
  };
}

/** The other graders of the set on this dimension, as one code: their mean rounded half-up, or their majority level. */
function othersCode(s: DimScale, set: PanelSet, except: string, rubric: string, value: (v: DimensionValue) => number | string | null): number | null {
  const xs = set.graders.filter((g) => g.id !== except).map((g) => value(g.values[rubric]?.[s.d.key])).filter((x): x is number | string => x !== null);
  if (xs.length === 0) return null;
  if (s.nominal) {
    const m = majority(xs as string[]);
    return m === null ? null : s.code(m);
  }
  return s.code(mean(xs as number[]));
}

function totalRow(rubric: string, total: string, label: string, reading: Reading, pairs: [number, number][]): JudgeTotalRow {
  const i3 = icc(pairs, { type: "ICC3k" });
  const i21 = icc(pairs, { type: "ICC2" });
  const sp = spearman(pairs.map((p) => p[0]), pairs.map((p) => p[1]));
  const ba = blandAltman(pairs.map((p) => p[0]), pairs.map((p) => p[1]));
  return {
    rubric,
    total,
    label,
    reading,
    n: pairs.length,
    icc3k: fig(i3.icc, i3.n, i3.reason, i3.ci),
    icc21: fig(i21.icc, i21.n, i21.reason, i21.ci),
    spearman: fig(sp.rho, sp.n, sp.reason),
    blandAltman: { bias: ba.bias, limits: ba.limits, n: ba.n, reason: ba.reason ?? null },
  };
}

function rankingOf(rubric: string, total: string, reading: Reading, units: { set: PanelSet; j: number; p: number }[]): JudgeRanking {
  const models = [...new Set(units.map((u) => u.set.model))].sort();
  const rows = models.map((model) => {
    const mine = units.filter((u) => u.set.model === model);
    return { model, judge: mean(mine.map((u) => u.j)), panel: mean(mine.map((u) => u.p)), n: mine.length };
  });
  const t = kendallTau(rows.map((r) => r.judge), rows.map((r) => r.panel));
  return { rubric, total, reading, models: rows, tau: fig(t.tau, t.n, t.reason) };
}

function deferralRow(
  doc: RubricDocument,
  s: DimScale,
  sets: readonly PanelSet[],
  bySet: ReadonlyMap<string, JudgeCell[]>,
  mine: ReadonlyMap<string, { values: GraderRubricValues }>,
  value: (v: DimensionValue) => number | string | null,
): DeferralRow {
  const judgments = [];
  for (const set of sets) {
    const own = (bySet.get(set.id) ?? []).filter((c) => c.rubric === doc.key && c.dimension === s.d.key);
    const j = value(mine.get(set.id)?.values[doc.key]?.[s.d.key]);
    const p = value(set.finalValues[doc.key]?.[s.d.key]);
    if (own.length === 0 || j === null || p === null) continue;
    // A set is kept only when every judgment of it is confident enough (as the hybrid mode decides).
    const conf = own.some((c) => c.confidence === null) ? null : Math.min(...own.map((c) => c.confidence as number));
    const jc = s.code(j);
    const pc = s.code(p);
    if (jc !== null && pc !== null) judgments.push({ confidence: conf, judge: jc, panel: pc });
  }
  const points = deferralCurve(judgments, (pairs) => agreementOf(s, pairs.map((x) => [x.judge, x.panel] as const)));
  return { rubric: doc.key, dimension: s.d.key, points: points.map(({ reason: _r, ...p }) => p) };
}
