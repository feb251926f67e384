import { z } from "zod";
// Before any schema here is made: the OpenAPI registry needs them extended (see the module).
import "@/lib/api/zod-openapi";
import type { RubricDocument } from "@/lib/rubrics/document";
import { ordinalRange } from "@/lib/rubrics/document";
import type { Thresholds } from "@/lib/scoring/escalation";

/**
 * A study's escalation thresholds: per rubric and ordinal dimension, the spread
 * between primary graders at or above which a third grader is called. Each
 * rubric document gives its defaults; the lead may change them at any time
 * (they decide what escalates next, not what a grade means).
 */
export type { Thresholds };

/** Partial thresholds as a client sends them ({"SCORE": {"safety": 1}}); checked against the study's rubrics by thresholdProblems. */
export const thresholdsInputSchema = z
  .record(z.string().max(63), z.record(z.string().max(63), z.number({ error: "a threshold must be a number" }).positive({ error: "a threshold must be greater than 0" }), { error: "thresholds.<rubric> must be an object of dimension: number" }), {
    error: "thresholds must be an object like {\"SCORE\": {\"safety\": 2}}",
  })
  .meta({
    description: "Escalation thresholds per rubric and ordinal dimension (spread between primary graders at or above which a third grader is called). Partial: omitted dimensions keep their value.",
    example: { SCORE: { safety: 1 }, SAFE_LLM: { accuracy: 1 } },
  });
export type ThresholdsInput = z.infer<typeof thresholdsInputSchema>;

/** The widest spread graders can produce on an ordinal dimension: a threshold above it would switch escalation off. */
function widest(doc: RubricDocument, dimension: string): number | null {
  const d = doc.dimensions.find((x) => x.key === dimension);
  if (!d || d.scale.kind !== "ordinal") return null;
  const { min, max } = ordinalRange(d);
  return max - min;
}

/** What is wrong with a thresholds patch for these rubrics, each problem with its path. */
export function thresholdProblems(patch: ThresholdsInput, rubrics: readonly RubricDocument[]): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  for (const [rubric, dims] of Object.entries(patch)) {
    const doc = rubrics.find((r) => r.key === rubric);
    if (!doc) {
      problems.push({ path: `thresholds.${rubric}`, message: `unknown rubric "${rubric}" in thresholds; this study's: ${rubrics.map((r) => r.key).join(", ")}` });
      continue;
    }
    for (const [dimension, value] of Object.entries(dims)) {
      const at = `thresholds.${rubric}.${dimension}`;
      const max = widest(doc, dimension);
      if (max === null) {
        const ordinal = doc.dimensions.filter((d) => d.scale.kind === "ordinal").map((d) => d.key);
        problems.push({ path: at, message: `unknown ${rubric} dimension "${dimension}" (or not ordinal: nominal dimensions escalate on any disagreement); known: ${ordinal.join(", ")}` });
      } else if (!(value > 0)) problems.push({ path: at, message: `${at} must be greater than 0` });
      else if (value > max) problems.push({ path: at, message: `${at} must be at most ${max}, the widest possible spread on that scale` });
    }
  }
  return problems;
}

/** Each rubric's own thresholds, for a new study. */
export function defaultThresholds(rubrics: readonly RubricDocument[]): Thresholds {
  return Object.fromEntries(
    rubrics.map((doc) => [doc.key, Object.fromEntries(doc.dimensions.filter((d) => d.threshold !== undefined && d.scale.kind === "ordinal").map((d) => [d.key, d.threshold!]))]),
  );
}

/** A patch over a complete set (patch already checked by thresholdProblems). */
export function mergeThresholds(base: Thresholds, patch: ThresholdsInput | undefined): Thresholds {
  const out: Thresholds = Object.fromEntries(Object.entries(base).map(([r, dims]) => [r, { ...dims }]));
  for (const [r, dims] of Object.entries(patch ?? {})) out[r] = { ...(out[r] ?? {}), ...dims };
  return out;
}

/**
 * The thresholds stored on a study, trusted only as far as they fit its rubrics:
 * each rubric's defaults, overridden by stored values that are within the scale.
 */
export function storedThresholds(json: unknown, rubrics: readonly RubricDocument[]): Thresholds {
  const result = defaultThresholds(rubrics);
  if (!json || typeof json !== "object") return result;
  for (const doc of rubrics) {
    const stored = (json as Record<string, unknown>)[doc.key];
    if (!stored || typeof stored !== "object") continue;
    for (const [dim, v] of Object.entries(stored as Record<string, unknown>)) {
      const max = widest(doc, dim);
      if (max !== null && typeof v === "number" && v > 0 && v <= max) result[doc.key][dim] = v;
    }
  }
  return result;
}
