import type { RubricDocument } from "@/lib/rubrics/document";
import type { DimensionValue } from "@/lib/scoring/rubric-values";
import { rougeLFromTokens } from "@/lib/stats/rouge";
import { tokenizeRouge } from "@/lib/stats/text-tokenize";
import type { DriftSource, TriageRule, TriageVerdict } from "./contract";

export type { DriftSource, TriageRule, TriageVerdict };

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
 *
 * Contradictions escalate: "the presence of contradictory clinical content
 * across three samples flags instability and triggers deeper investigation
 * [...] or targeted review", and "contradictory clinical content is
 * considered unstable". Scores alone can miss it (two answers may both score
 * 4 on accuracy and still advise opposite things), so each grader is asked
 * whether the set's answers contradict each other (Study.askContradictions: a
 * study setting rather than a dimension of the rubric document, because it is
 * no score of the instrument, enters no reliability or effect size, and must
 * work whatever instrument the study uses). The flags can only make a verdict
 * worse: `reviewAtFlags` graders flagging send the set at least to review,
 * `rejectAtFlags` propose rejection (null: never).
 */

/**
 * On a 1-5 scale: a spread of one point (0.25) is consistent, two points (0.5) minor drift, three or more major.
 * One grader seeing a contradiction calls for review; two (with the usual k = 2, both graders) for rejection.
 */
export const DEFAULT_TRIAGE_RULE: TriageRule = { acceptAtMost: 0.25, reviewAtMost: 0.5, reviewAtFlags: 1, rejectAtFlags: 2 };

export interface SetStability {
  /** The largest drift, or null when no dimension could be read (all N/A or missing). */
  drift: number | null;
  /** How many graders flagged the answers as contradicting each other. */
  contradictions: number;
  /** The worse of the drift's verdict and the flags'; null when neither says anything. */
  verdict: TriageVerdict | null;
  /** What the drift was read from, the largest first. */
  sources: DriftSource[];
}

const RANK: Record<TriageVerdict, number> = { accept: 0, review: 1, reject: 2 };

function range(levels: readonly { value: number | string }[] | undefined): { lo: number; hi: number } | null {
  const values = (levels ?? []).map((l) => Number(l.value)).filter(Number.isFinite);
  if (values.length < 2) return null;
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return hi > lo ? { lo, hi } : null;
}

export function verdictOf(drift: number, rule: Pick<TriageRule, "acceptAtMost" | "reviewAtMost">): TriageVerdict {
  if (drift <= rule.acceptAtMost + 1e-9) return "accept";
  if (drift > rule.reviewAtMost + 1e-9) return "reject";
  return "review";
}

/** What the contradiction flags alone call for: null below both counts (they never make a verdict better). */
export function flagVerdictOf(contradictions: number, rule: Pick<TriageRule, "reviewAtFlags" | "rejectAtFlags">): TriageVerdict | null {
  if (rule.rejectAtFlags !== null && contradictions >= rule.rejectAtFlags) return "reject";
  if (rule.reviewAtFlags !== null && contradictions >= rule.reviewAtFlags) return "review";
  return null;
}

function worse(a: TriageVerdict | null, b: TriageVerdict | null): TriageVerdict | null {
  if (a === null) return b;
  if (b === null) return a;
  return RANK[b] > RANK[a] ? b : a;
}

/**
 * A final set's stability: `perAnswer` gives each each-answer dimension's N
 * final values (rubric -> dimension -> values), `finals` each dimension's
 * final value (rubric -> dimension -> value), `contradictions` how many of
 * its graders flagged the answers as contradicting each other.
 */
export function setStability(
  rubrics: readonly RubricDocument[],
  perAnswer: Record<string, Record<string, (number | string | null)[]>>,
  finals: Record<string, Record<string, DimensionValue>>,
  rule: TriageRule,
  contradictions = 0,
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
  const drift = sources.length ? sources[0].drift : null;
  const verdict = worse(drift === null ? null : verdictOf(drift, rule), flagVerdictOf(contradictions, rule));
  return { drift, contradictions, verdict, sources };
}

/** Problems with a rule a lead sent, each with its field. */
export function triageRuleProblems(rule: TriageRule): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (!(rule.acceptAtMost >= 0 && rule.acceptAtMost <= 1)) problems.push({ path: "acceptAtMost", message: "acceptAtMost is a share of the scale, from 0 to 1" });
  if (!(rule.reviewAtMost >= 0 && rule.reviewAtMost <= 1)) problems.push({ path: "reviewAtMost", message: "reviewAtMost is a share of the scale, from 0 to 1" });
  if (rule.reviewAtMost < rule.acceptAtMost) problems.push({ path: "reviewAtMost", message: "reviewAtMost cannot be below acceptAtMost: review lies between the two" });
  for (const key of ["reviewAtFlags", "rejectAtFlags"] as const) {
    const n = rule[key];
    if (n !== null && !(Number.isInteger(n) && n >= 1 && n <= 100)) problems.push({ path: key, message: `${key} is a number of graders, at least 1 (null: never)` });
  }
  if (rule.reviewAtFlags !== null && rule.rejectAtFlags !== null && rule.rejectAtFlags < rule.reviewAtFlags) {
    problems.push({ path: "rejectAtFlags", message: "rejectAtFlags cannot be below reviewAtFlags: more flags escalate further" });
  }
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
