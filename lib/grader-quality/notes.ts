/** The plain-language notes of the grader-quality signals: in the API (`note`), on the page and in the CSV's readme. */

/** The trend's block: a grader's submitted sets in the order they submitted them, this many at a time. */
export const TREND_BLOCK = 50;

export const NOTES = {
  scope:
    "Computed from each grader's submitted primary sets (adjudications are left out: they are chosen for disagreement). Every grader is shown, an excluded one too; comparisons are against every other primary grader of the same set.",
  skipped: "Nominal items and 'not applicable' answers are skipped: only ordinal scores are read. An instrument without a total works the same (every figure is per ordinal dimension or pooled over them).",
  time: "Median server-measured time on a set (time the page was visible, bounded by the time the server saw pass), and its ratio to the study's median over every grader's sets. Far below 1: answers may be read too quickly to judge. n: sets with a recorded time (imported grades have none).",
  straightLining:
    "Share (0-1) of the grader's submitted sets in which every ordinal score (all dimensions, all answers) is the same value. Near 1: the grader may not be judging each dimension. n: sets with at least two ordinal scores.",
  scaleUse: "Share (0-1) of each dimension's declared levels the grader used at least once, averaged over the dimensions they scored. Low: the grader uses a narrow part of the scale. n: ordinal scores read.",
  bias:
    "Leave-one-out bias in scale points: over every cell (set, dimension, answer) the grader and at least one other primary grader scored, the mean of the grader's score minus the mean of the others' scores in that cell. Positive: more lenient than their peers; negative: stricter. 95% interval: cluster-robust over sets (t with sets - 1 df). Overall pools the ordinal dimensions, each in its own scale's points. n: cells; sets: sets they share with a peer.",
  agreement:
    "Gwet's AC2 (quadratic weights, each dimension's declared levels) on every (grader, peer) pair of scores of a shared cell; overall: the dimensions' coefficients weighted by their pairs. 1: full agreement with peers; near 0 or below: no better than chance. n: pairs.",
  trend: `Drift: the grader's submitted sets in submission order, ${TREND_BLOCK} at a time; per block the leave-one-out bias (overall) and the straight-lining share.`,
  gold: "Gold sets: sets with expected scores mixed silently into the work. Accuracy: share (0-1) of gold cells within the set's tolerance, 95% Wilson interval; bias: mean of score minus expected score in scale points, 95% interval over gold sets. N/A answers are skipped. n: gold cells.",
  intraRater:
    "Washout re-grades: a share of the grader's submitted sets graded again after the washout, answers in a new order. Per dimension: quadratic-weighted kappa (declared levels) and ICC(3,1) between the first and the second grading of the same cells. Only the first grading counts in results. n: cells graded twice.",
  calibration: "Calibration: rounds of sets with expected scores before real work, where the study requires it; passed when at least the study's share of a round's cells were within tolerance. Failed rounds are listed for the lead.",
} as const;

/** Signals of issue #35 that need datasets this study does not collect yet (gold sets, washout re-grades). */
export const PENDING_SIGNALS = [
  { signal: "goldAccuracy", label: "Gold accuracy and bias", status: "not collected in this study", note: "Share of gold cells within tolerance and mean signed error, once gold sets are mixed into the work." },
  { signal: "intraRater", label: "Intra-rater reliability", status: "not collected in this study", note: "Quadratic-weighted kappa and ICC(3,1) between a grader's first and washout grading of the same cells, once washout re-grades are collected." },
] as const;
