/**
 * Generalizability theory for a grading study (issue #36): the variance components of a pilot
 * (G-study) and what other numbers of graders per set would give (D-study). Answers (p) are
 * nested in questions (q), and graders (r) are either
 *
 * - crossed with answers, when the same graders scored every answer, design (p:q) x r, with
 *   components q, p:q, r, qr and pr:q,e (the residual, confounded with the answers' interaction
 *   with graders); or
 * - nested in answers, when each answer had its own graders (load-balanced assignment), design
 *   r:(p:q), with components q, p:q and r:p:q,e (graders' leniency then sits in the residual).
 *
 * ANOVA (expected mean squares) estimators on balanced data, as Brennan (2001) gives them; a
 * negative estimate is reported as 0 (Brennan's convention) and listed in `negative`. Balanced
 * data's REML estimates are the same when none is negative, which is how the golden vectors
 * check them (R lme4).
 *
 * The D-study takes answers as the objects of measurement, whose universe score varies with the
 * question and the answer (tau = q + p:q); with k graders per answer the relative error is
 * (qr + pr:q,e)/k and the absolute error adds r/k (crossed), or r:p:q,e / k for both (nested).
 */
import type { Degenerate } from "./types";

export type GDesign = "crossed" | "nested";

/** scores[q][p][r]: question q's answer p, grader (or grader slot, nested) r. Balanced. */
export type BalancedScores = ReadonlyArray<ReadonlyArray<ReadonlyArray<number>>>;

export interface VarianceComponent {
  /** Facet or interaction, in G-theory's notation. */
  source: string;
  /** The estimate (0 where the ANOVA estimate was negative). */
  variance: number;
  /** Share of the total variance. */
  share: number;
  meanSquare: number;
  df: number;
}

export interface GStudyResult extends Degenerate {
  design: GDesign;
  questions: number;
  answersPerQuestion: number;
  gradersPerAnswer: number;
  components: VarianceComponent[];
  /** Sources whose ANOVA estimate was negative (set to 0). */
  negative: string[];
}

function sizes(scores: BalancedScores): { nq: number; np: number; nr: number } | string {
  const nq = scores.length;
  if (nq < 2) return "at least two questions are needed";
  const np = scores[0].length;
  if (np < 2) return "at least two answers per question are needed";
  const nr = scores[0][0].length;
  if (nr < 2) return "at least two graders per answer are needed";
  for (const q of scores) {
    if (q.length !== np) return "every question must have the same number of answers (balanced data)";
    for (const p of q) {
      if (p.length !== nr) return "every answer must have the same number of graders (balanced data)";
      for (const v of p) if (!Number.isFinite(v)) return "every score must be a number";
    }
  }
  return { nq, np, nr };
}

export function gStudy(scores: BalancedScores, design: GDesign): GStudyResult {
  const size = sizes(scores);
  if (typeof size === "string") return { design, questions: scores.length, answersPerQuestion: 0, gradersPerAnswer: 0, components: [], negative: [], reason: size };
  const { nq, np, nr } = size;
  let grand = 0;
  const mq = new Array<number>(nq).fill(0);
  const mqp = scores.map(() => new Array<number>(np).fill(0));
  const mr = new Array<number>(nr).fill(0);
  const mqr = scores.map(() => new Array<number>(nr).fill(0));
  for (let q = 0; q < nq; q++) {
    for (let p = 0; p < np; p++) {
      for (let r = 0; r < nr; r++) {
        const y = scores[q][p][r];
        grand += y;
        mq[q] += y;
        mqp[q][p] += y;
        mr[r] += y;
        mqr[q][r] += y;
      }
    }
  }
  grand /= nq * np * nr;
  for (let q = 0; q < nq; q++) {
    mq[q] /= np * nr;
    for (let p = 0; p < np; p++) mqp[q][p] /= nr;
    for (let r = 0; r < nr; r++) mqr[q][r] /= np;
  }
  for (let r = 0; r < nr; r++) mr[r] /= nq * np;

  let ssQ = 0;
  let ssPQ = 0;
  let ssR = 0;
  let ssQR = 0;
  let ssWithin = 0;
  let ssRes = 0;
  for (let q = 0; q < nq; q++) {
    ssQ += np * nr * (mq[q] - grand) ** 2;
    for (let p = 0; p < np; p++) ssPQ += nr * (mqp[q][p] - mq[q]) ** 2;
    for (let r = 0; r < nr; r++) ssQR += np * (mqr[q][r] - mq[q] - mr[r] + grand) ** 2;
    for (let p = 0; p < np; p++) {
      for (let r = 0; r < nr; r++) {
        const y = scores[q][p][r];
        ssWithin += (y - mqp[q][p]) ** 2;
        ssRes += (y - mqp[q][p] - mqr[q][r] + mq[q]) ** 2;
      }
    }
  }
  for (let r = 0; r < nr; r++) ssR += nq * np * (mr[r] - grand) ** 2;

  const raw: { source: string; estimate: number; meanSquare: number; df: number }[] = [];
  if (design === "crossed") {
    const dfQ = nq - 1;
    const dfPQ = nq * (np - 1);
    const dfR = nr - 1;
    const dfQR = (nq - 1) * (nr - 1);
    const dfRes = nq * (np - 1) * (nr - 1);
    const msQ = ssQ / dfQ;
    const msPQ = ssPQ / dfPQ;
    const msR = ssR / dfR;
    const msQR = ssQR / dfQR;
    const msRes = ssRes / dfRes;
    const res = msRes;
    const qr = (msQR - msRes) / np;
    const r = (msR - msQR) / (nq * np);
    const pq = (msPQ - msRes) / nr;
    const q = (msQ - msPQ - msQR + msRes) / (np * nr);
    raw.push(
      { source: "q", estimate: q, meanSquare: msQ, df: dfQ },
      { source: "p:q", estimate: pq, meanSquare: msPQ, df: dfPQ },
      { source: "r", estimate: r, meanSquare: msR, df: dfR },
      { source: "qr", estimate: qr, meanSquare: msQR, df: dfQR },
      { source: "pr:q,e", estimate: res, meanSquare: msRes, df: dfRes },
    );
  } else {
    const dfQ = nq - 1;
    const dfPQ = nq * (np - 1);
    const dfE = nq * np * (nr - 1);
    const msQ = ssQ / dfQ;
    const msPQ = ssPQ / dfPQ;
    const msE = ssWithin / dfE;
    raw.push(
      { source: "q", estimate: (msQ - msPQ) / (np * nr), meanSquare: msQ, df: dfQ },
      { source: "p:q", estimate: (msPQ - msE) / nr, meanSquare: msPQ, df: dfPQ },
      { source: "r:p:q,e", estimate: msE, meanSquare: msE, df: dfE },
    );
  }
  const negative = raw.filter((c) => c.estimate < 0).map((c) => c.source);
  const total = raw.reduce((s, c) => s + Math.max(0, c.estimate), 0);
  return {
    design,
    questions: nq,
    answersPerQuestion: np,
    gradersPerAnswer: nr,
    components: raw.map((c) => ({ source: c.source, variance: Math.max(0, c.estimate), share: total > 0 ? Math.max(0, c.estimate) / total : 0, meanSquare: c.meanSquare, df: c.df })),
    negative,
  };
}

export interface DStudyRow {
  graders: number;
  /** Generalizability coefficient (relative decisions: ranking answers). */
  relative: number | null;
  /** Dependability coefficient (absolute decisions: a score against a cut-off). */
  absolute: number | null;
}

export function dStudy(g: GStudyResult, graders: ReadonlyArray<number>): DStudyRow[] {
  const v = (source: string) => g.components.find((c) => c.source === source)?.variance ?? 0;
  const tau = v("q") + v("p:q");
  const relErr = g.design === "crossed" ? v("qr") + v("pr:q,e") : v("r:p:q,e");
  const absErr = g.design === "crossed" ? relErr + v("r") : relErr;
  return graders.map((k) => ({
    graders: k,
    relative: tau + relErr / k > 0 ? tau / (tau + relErr / k) : null,
    absolute: tau + absErr / k > 0 ? tau / (tau + absErr / k) : null,
  }));
}
