import { z } from "zod";
// Before any schema here is made: the OpenAPI registry needs them extended (see the module).
import "@/lib/api/zod-openapi";
import type { RubricDocument } from "@/lib/rubrics/document";
import { ordinalRange } from "@/lib/rubrics/document";
import { documentRule, type EscalationOverride, type EscalationOverrides } from "@/lib/rubrics/escalation-rule";
import type { Thresholds } from "@/lib/scoring/escalation";

/**
 * A study's escalation thresholds and rules: per rubric and dimension, when a
 * third grader is called (never, on any disagreement, or at a spread between
 * the primary graders) and whether N/A against a value counts. Each rubric
 * document gives its defaults; the lead may change them until the study is
 * closed (they decide what escalates next, not what a grade means).
 */
export type { Thresholds, EscalationOverrides };

/** Partial thresholds as a client sends them ({"<rubric>": {"<dimension>": 1}}); checked against the study's rubrics by thresholdProblems. */
export const thresholdsInputSchema = z
  .record(z.string().max(63), z.record(z.string().max(63), z.number({ error: "a threshold must be a number" }).positive({ error: "a threshold must be greater than 0" }), { error: "thresholds.<rubric> must be an object of dimension: number" }), {
    error: "thresholds must be an object like {\"<rubric>\": {\"<dimension>\": 2}}",
  })
  .meta({
    description: "Escalation thresholds per rubric and ordinal dimension (spread between primary graders at or above which a third grader is called). Partial: omitted dimensions keep their value.",
    example: { quality: { accuracy: 1 } },
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
        problems.push({ path: at, message: `unknown ${rubric} dimension "${dimension}" (or not ordinal: a nominal dimension has no spread; set its rule in escalationRules); known: ${ordinal.join(", ")}` });
      } else if (!(value > 0)) problems.push({ path: at, message: `${at} must be greater than 0` });
      else if (value > max) problems.push({ path: at, message: `${at} must be at most ${max}, the widest possible spread on that scale` });
    }
  }
  return problems;
}

/** Each rubric's own thresholds, for a new study. */
export function defaultThresholds(rubrics: readonly RubricDocument[]): Thresholds {
  return Object.fromEntries(
    rubrics.map((doc) => [
      doc.key,
      Object.fromEntries(
        doc.dimensions.flatMap((d) => {
          const t = d.escalation?.threshold ?? d.threshold;
          return t !== undefined && d.scale.kind === "ordinal" ? [[d.key, t]] : [];
        }),
      ),
    ]),
  );
}

const override = z.strictObject(
  {
    rule: z.enum(["never", "any", "spread"], { error: "rule must be never, any or spread" }).optional(),
    na: z.enum(["escalate", "ignore"], { error: "na must be escalate or ignore" }).optional(),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")} (rule, na)` : "each dimension's rule is an object like {\"rule\": \"never\"}") },
);

/** Partial escalation rules as a client sends them; checked against the study's rubrics by escalationRuleProblems. */
export const escalationRulesInputSchema = z
  .record(z.string().max(63), z.record(z.string().max(63), override), { error: "escalationRules.<rubric> must be an object of dimension: rule" })
  .meta({
    description:
      "Per rubric and dimension: when a third grader is called (rule: never, any disagreement, or spread at the threshold; ordinal only) and whether N/A against a value escalates (na: escalate or ignore). Partial: omitted dimensions keep theirs.",
    example: { survey: { written_by: { rule: "never" }, extent_of_harm: { na: "ignore" } } },
  });
export type EscalationRulesInput = z.infer<typeof escalationRulesInputSchema>;

/** What is wrong with an escalation rules patch for these rubrics, each problem with its path. */
export function escalationRuleProblems(patch: EscalationRulesInput, rubrics: readonly RubricDocument[]): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  for (const [rubric, dims] of Object.entries(patch)) {
    const doc = rubrics.find((r) => r.key === rubric);
    if (!doc) {
      problems.push({ path: `escalationRules.${rubric}`, message: `unknown rubric "${rubric}" in escalationRules; this study's: ${rubrics.map((r) => r.key).join(", ")}` });
      continue;
    }
    for (const [dimension, o] of Object.entries(dims)) {
      const at = `escalationRules.${rubric}.${dimension}`;
      const d = doc.dimensions.find((x) => x.key === dimension);
      if (!d || d.scale.kind === "criteria") problems.push({ path: at, message: `unknown ${doc.name} dimension "${dimension}" (criteria dimensions do not escalate)` });
      else if (o.rule === "spread" && d.scale.kind !== "ordinal") problems.push({ path: `${at}.rule`, message: `${d.name} is nominal: it escalates never or on any disagreement, not at a spread` });
    }
  }
  return problems;
}

/** A rules patch over the stored rules (patch already checked); a rule equal to the document's is dropped, so the document speaks for it. */
export function mergeEscalationRules(base: EscalationOverrides, patch: EscalationRulesInput | undefined, rubrics: readonly RubricDocument[]): EscalationOverrides {
  const out: EscalationOverrides = Object.fromEntries(Object.entries(base).map(([r, dims]) => [r, { ...dims }]));
  for (const [r, dims] of Object.entries(patch ?? {})) {
    for (const [k, o] of Object.entries(dims)) {
      const d = rubrics.find((x) => x.key === r)?.dimensions.find((x) => x.key === k);
      if (!d) continue;
      const doc = documentRule(d);
      const merged: EscalationOverride = { ...(out[r]?.[k] ?? {}), ...o };
      const kept: EscalationOverride = {};
      if (merged.rule !== undefined && merged.rule !== doc.rule) kept.rule = merged.rule;
      if (merged.na !== undefined && merged.na !== doc.na) kept.na = merged.na;
      out[r] = { ...(out[r] ?? {}) };
      if (Object.keys(kept).length) out[r][k] = kept;
      else delete out[r][k];
    }
  }
  for (const r of Object.keys(out)) if (Object.keys(out[r]).length === 0) delete out[r];
  return out;
}

/** The rules stored on a study, trusted only as far as they fit its rubrics. */
export function storedEscalationRules(json: unknown, rubrics: readonly RubricDocument[]): EscalationOverrides {
  const parsed = escalationRulesInputSchema.safeParse(json ?? {});
  if (!parsed.success) return {};
  const fits = Object.fromEntries(
    Object.entries(parsed.data).flatMap(([r, dims]) => {
      const ok = Object.entries(dims).filter(([k, o]) => escalationRuleProblems({ [r]: { [k]: o } }, rubrics).length === 0);
      return ok.length ? [[r, Object.fromEntries(ok)]] : [];
    }),
  );
  return fits;
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
