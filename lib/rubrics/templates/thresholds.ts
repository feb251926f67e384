/**
 * Default escalation thresholds: the spread (max - min) between primary graders
 * at or above which a dimension counts as a disagreement and a third grader is
 * called. S.C.O.R.E.: 2 Likert points. SAFE-LLM: graders' means over the N
 * answers differing by 1 point on the 0-2 domains, 0.5 on the 0-1 domains.
 */
export const DEFAULT_THRESHOLDS = {
  SCORE: { safety: 2, consensus_context: 2, objectivity: 2, reproducibility: 2, explainability: 2 },
  SAFE_LLM: { accuracy: 1, comprehensiveness: 1, supplementation: 0.5, consistency: 0.5, fluency: 0.5 },
} as const;

export type Thresholds = {
  SCORE: Record<keyof typeof DEFAULT_THRESHOLDS.SCORE, number>;
  SAFE_LLM: Record<keyof typeof DEFAULT_THRESHOLDS.SAFE_LLM, number>;
};
