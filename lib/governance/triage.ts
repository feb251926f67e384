import type { RubricDocument } from "@/lib/rubrics/document";
import type { DimensionValue } from "@/lib/scoring/rubric-values";
import { rougeLFromTokens } from "@/lib/stats/rouge";
import { tokenizeRouge } from "@/lib/stats/text-tokenize";

/**
 * Stages 3-4 of the five-stage evaluation pipeline of paper 000 (in
 * ../shared/papers), as a rule a study applies to every final set with N >= 2
 * answers: "consistent responses proceed to acceptance; minor drift flags for
 * review; major drift triggers rejection".
 * The paper gives no numbers, so the rule is the lead's, with stated defaults.
 *
 * Drift is read from the graders' final scores, each on its own scale's range
 * (0 = no drift, 1 = the whole scale):
 *  - spread: per dimension scored on each answer, the largest minus the
 *    smallest of the N answers' final values;
 *  - judged instability: per ordinal dimension graded across the answers
 *    (scope "set", typed or derived, such as a reproducibility or
 *    consistency judgment), how far its final value sits below the top of
 *    its scale.
 * A set's drift is the largest of these; at most `acceptAtMost` is accepted,
 * above `reviewAtMost` rejected, anything between goes to review.
 */

export interface TriageRule {
  /** Drift at or below this is consistent: accept. */
  acceptAtMost: number;
  /** Drift above this is major: reject. Between the two: review. */
  reviewAtMost: number;
}

/** On a 1-5 scale: a spread of one point (0.25) is consistent, two points (0.5) minor drift, three or more major. */
export const DEFAULT_TRIAGE_RULE: TriageRule = { acceptAtMost: 0.25, reviewAtMost: 0.5 };

export type TriageVerdict = "accept" | "review" | "reject";

export interface DriftSource {
  rubric: string;
  dimension: string;
  name: string;
  kind: "spread" | "judged";
  /** 0-1 on the dimension's scale. */
  drift: number;
  /** The N answers' final values (spread) or the set's final value (judged). */
  values: (number | null)[];
}

export interface SetStability {
  /** The largest drift, or null when no dimension could be read (all N/A or missing). */
  drift: number | null;
  verdict: TriageVerdict | null;
  /** What the drift was read from, the largest first. */
  sources: DriftSource[];
}

function range(levels: readonly { value: number | string }[] | undefined): { lo: number; hi: number } | null {
  const values = (levels ?? []).map((l) => Number(l.value)).filter(Number.isFinite);
  if (values.length < 2) return null;
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return hi > lo ? { lo, hi } : null;
}

export function verdictOf(drift: number, rule: TriageRule): TriageVerdict {
  if (drift <= rule.acceptAtMost + 1e-9) return "accept";
  if (drift > rule.reviewAtMost + 1e-9) return "reject";
  return "review";
}

/**
 * A final set's stability: `perAnswer` gives each each-answer dimension's N
 * final values (rubric -> dimension -> values), `finals` each dimension's
 * final value (rubric -> dimension -> value).
 */
export function setStability(
  rubrics: readonly RubricDocument[],
  perAnswer: Record<string, Record<string, (number | string | null)[]>>,
  finals: Record<string, Record<string, DimensionValue>>,
  rule: TriageRule,
): SetStability {
  const sources: DriftSource[] = [];
  for (const doc of rubrics) {
    for (const d of doc.dimensions) {
      if (d.scale.kind !== "ordinal") continue;
      const r = range(d.scale.levels);
      if (!r) continue;
      if (d.scope === "each_answer" && !d.derived) {
        const values = (perAnswer[doc.key]?.[d.key] ?? []).map((v) => (typeof v === "number" ? v : null));
        const numbers = values.filter((v): v is number => v !== null);
        if (numbers.length < 2) continue;
        sources.push({ rubric: doc.key, dimension: d.key, name: d.name, kind: "spread", drift: (Math.max(...numbers) - Math.min(...numbers)) / (r.hi - r.lo), values });
      } else if (d.scope === "set") {
        const v = finals[doc.key]?.[d.key];
        if (typeof v !== "number") continue;
        sources.push({ rubric: doc.key, dimension: d.key, name: d.name, kind: "judged", drift: Math.min(1, Math.max(0, (r.hi - v) / (r.hi - r.lo))), values: [v] });
      }
    }
  }
  sources.sort((a, b) => b.drift - a.drift);
  if (!sources.length) return { drift: null, verdict: null, sources };
  const drift = sources[0].drift;
  return { drift, verdict: verdictOf(drift, rule), sources };
}

/** Problems with a rule a lead sent, each with its field. */
export function triageRuleProblems(rule: TriageRule): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (!(rule.acceptAtMost >= 0 && rule.acceptAtMost <= 1)) problems.push({ path: "acceptAtMost", message: "acceptAtMost is a share of the scale, from 0 to 1" });
  if (!(rule.reviewAtMost >= 0 && rule.reviewAtMost <= 1)) problems.push({ path: "reviewAtMost", message: "reviewAtMost is a share of the scale, from 0 to 1" });
  if (rule.reviewAtMost < rule.acceptAtMost) problems.push({ path: "reviewAtMost", message: "reviewAtMost cannot be below acceptAtMost: review lies between the two" });
  return problems;
}

/**
 * How alike a set's answers read: the mean ROUGE-L F1 over every pair of its
 * answers (F1 is symmetric), tokenised as the reference metrics are. Shown
 * beside the drift, not part of the verdict: "stylistic variation is
 * acceptable, whereas contradictory clinical content is considered unstable",
 * and word overlap cannot tell the two apart. Null with fewer than two
 * answers that have text.
 */
export function mutualRougeL(texts: readonly string[]): number | null {
  const tokens = texts.filter((t) => t.trim() !== "").map((t) => tokenizeRouge(t));
  if (tokens.length < 2) return null;
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < tokens.length; i++) {
    for (let j = i + 1; j < tokens.length; j++) {
      sum += rougeLFromTokens(tokens[i], tokens[j]).f1;
      pairs++;
    }
  }
  return sum / pairs;
}
