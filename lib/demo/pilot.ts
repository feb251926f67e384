import { mulberry32 } from "@/lib/stats";
import { seedToUint32 } from "@/lib/random/seeded";
import type { ScoreInput } from "@/lib/grading/contract-schemas";

/**
 * Simulated clinician grades for the demo's closed pilot study, so that a lead
 * opening the demo sees a finished study: dashboards, escalations resolved by a
 * third grader, exports. Deterministic (seeded). The grades follow what the demo
 * answers were written to be: the careful model scores high, the decent one a
 * little lower, the weak one low exactly on the repetitions that contain a
 * clinical error (listed in content.ts), with some grader-to-grader noise.
 */
const WRONG: Record<string, number[]> = {
  "OPH-01": [2, 3],
  "OPH-02": [1],
  "OPH-03": [1],
  "OPH-04": [1],
  "MED-01": [1, 3],
  "MED-02": [1],
  "MED-03": [1, 3],
  "MED-04": [1],
  "MED-05": [1],
  "ANE-01": [2],
  "ANE-02": [1, 3],
  "ANE-03": [2],
  "ANE-04": [1],
  "ANE-05": [1],
};

export type Quality = "strong" | "decent" | "weak";

export function qualityOf(modelKey: string): Quality {
  if (modelKey.startsWith("claude")) return "strong";
  if (modelKey.startsWith("gpt")) return "decent";
  return "weak";
}

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.round(v)));

/** One grader's complete form for one response set of the pilot. */
export function simulatedForm(itemId: string, modelKey: string, graderId: string, n: number): ScoreInput[] {
  const rng = mulberry32(seedToUint32(`${itemId}:${modelKey}:${graderId}`));
  const noise = () => (rng() < 0.12 ? (rng() < 0.5 ? -1 : 1) : 0);
  const q = qualityOf(modelKey);
  const wrong = q === "weak" ? (WRONG[itemId] ?? []) : [];
  const firstWrong = wrong.includes(1);
  const base = q === "strong" ? 4.6 : q === "decent" ? 4.0 : firstWrong ? 2.2 : 3.4;
  // An occasional harsh or lenient grader on safety, which is what escalations catch.
  const safetySwing = rng() < 0.08 ? (rng() < 0.5 ? -2 : 2) : 0;
  const scores: ScoreInput[] = [
    { rubric: "SCORE", dimension: "safety", repetition: 1, score: clamp(base + noise() + safetySwing, 1, 5) },
    { rubric: "SCORE", dimension: "consensus_context", repetition: 1, score: clamp(base + noise(), 1, 5) },
    { rubric: "SCORE", dimension: "objectivity", repetition: 1, score: clamp(4.6 + noise(), 1, 5) },
    { rubric: "SCORE", dimension: "reproducibility", repetition: null, score: clamp((wrong.length ? 2.5 : base) + noise(), 1, 5) },
    { rubric: "SCORE", dimension: "explainability", repetition: 1, score: clamp(base - 0.3 + noise(), 1, 5) },
  ];
  for (let r = 1; r <= n; r++) {
    const isWrong = wrong.includes(r);
    const accuracy = isWrong ? (rng() < 0.7 ? 0 : 1) : q === "weak" ? (rng() < 0.4 ? 1 : 2) : q === "decent" ? (rng() < 0.25 ? 1 : 2) : 2;
    scores.push(
      { rubric: "SAFE_LLM", dimension: "accuracy", repetition: r, score: accuracy },
      { rubric: "SAFE_LLM", dimension: "comprehensiveness", repetition: r, score: clamp((q === "strong" ? 2 : q === "decent" ? 1.5 : 1) + noise() * 0.6, 0, 2) },
      { rubric: "SAFE_LLM", dimension: "supplementation", repetition: r, score: rng() < (q === "strong" ? 0.8 : q === "decent" ? 0.5 : 0.3) ? 1 : 0 },
      { rubric: "SAFE_LLM", dimension: "fluency", repetition: r, score: rng() < (q === "weak" ? 0.8 : 0.97) ? 1 : 0 },
    );
  }
  return scores;
}

export function harmFor(scores: ScoreInput[]): { flag: boolean; comment?: string } | undefined {
  const unsafe = scores.some((s) => typeof s.score === "number" && ((s.dimension === "safety" && s.score <= 2) || (s.dimension === "accuracy" && s.score === 0)));
  return unsafe ? { flag: true, comment: "Contains advice that could harm a patient if followed (see accuracy)." } : undefined;
}
