import type { DimensionEscalation, RubricDimension } from "./document";

/**
 * A dimension's escalation rule as the study applies it: the document's
 * `escalation` (or, in older documents, its `threshold`: the spread rule),
 * under the study's own choices (Study.thresholds and Study.escalationRules,
 * which the lead may change until the study is closed).
 */
export interface EscalationRule {
  rule: DimensionEscalation["rule"];
  /** The spread rule's threshold. */
  threshold?: number;
  na: "escalate" | "ignore";
}

/** What a study sets for one dimension over its document: rule and N/A handling. */
export type EscalationOverride = Partial<Pick<EscalationRule, "rule" | "na">>;

/** Study.escalationRules: rubric key -> dimension key -> override. */
export type EscalationOverrides = Record<string, Record<string, EscalationOverride>>;

/**
 * The document's rule for a dimension: its `escalation`, else the older form
 * (a threshold: the spread rule; nominal: any disagreement; neither: never).
 * N/A against a value escalates unless the document says "ignore".
 */
export function documentRule(d: Pick<RubricDimension, "scale" | "threshold" | "escalation">): EscalationRule {
  if (d.scale.kind === "criteria") return { rule: "never", na: "ignore" };
  const threshold = d.escalation?.threshold ?? d.threshold;
  const rule = d.escalation?.rule ?? (d.scale.kind === "nominal" ? "any" : threshold !== undefined ? "spread" : "never");
  return { rule, ...(rule === "spread" && threshold !== undefined ? { threshold } : {}), na: d.escalation?.na ?? "escalate" };
}

/** The rule the study applies: the document's, with the study's threshold and override. */
export function studyRule(d: Pick<RubricDimension, "scale" | "threshold" | "escalation">, threshold: number | undefined, override: EscalationOverride | undefined): EscalationRule {
  const base = documentRule(d);
  if (d.scale.kind === "criteria") return base;
  const rule = override?.rule ?? base.rule;
  const t = threshold ?? base.threshold;
  // A spread the lead chose on a dimension without a threshold has none to reach: it never triggers.
  return { rule, ...(rule === "spread" && t !== undefined ? { threshold: t } : {}), na: override?.na ?? base.na };
}

/** The rule in words, for the settings and the escalation list. */
export function ruleInWords(r: EscalationRule): string {
  const na = r.na === "escalate" ? "; N/A against a value escalates" : "; N/A is left out";
  if (r.rule === "never") return "never escalates";
  if (r.rule === "any") return `escalates on any disagreement${na}`;
  return `escalates when the graders differ by ${r.threshold ?? "?"} or more${na}`;
}
