"use client";

import { Input } from "@/components/ui/input";
import { ordinalRange, type RubricDimension, type RubricDocument } from "@/lib/rubrics/document";
import { documentRule, type EscalationRule } from "@/lib/rubrics/escalation-rule";
import { describedBy, Field, FieldError } from "./form-field";

/** The lead's choices per rubric and dimension, as typed (a threshold is text until it is sent). */
export type RuleChoice = Pick<EscalationRule, "rule" | "na"> & { threshold: string };
export type RuleChoices = Record<string, Record<string, RuleChoice>>;

/** Escalation's trigger count on the pilot's primary grades, keyed "rubric.dimension". */
export type TriggerRates = Record<string, { triggered: number; sets: number }>;

/** The dimensions that may escalate: all but criteria. */
export const escalationDims = (r: RubricDocument) => r.dimensions.filter((d) => d.scale.kind !== "criteria");

const RULE_LABEL: Record<EscalationRule["rule"], string> = {
  never: "Never",
  any: "On any disagreement",
  spread: "When scores differ by at least",
};

/** What the form shows for a dimension before the lead changes anything: the study's rule. */
export function initialChoice(d: RubricDimension, threshold: number | undefined, override: Partial<Pick<EscalationRule, "rule" | "na">> | undefined): RuleChoice {
  const base = documentRule(d);
  const t = threshold ?? base.threshold;
  return { rule: override?.rule ?? base.rule, na: override?.na ?? base.na, threshold: t === undefined ? "" : String(t) };
}

function rateText(rate: { triggered: number; sets: number } | undefined): string {
  if (!rate || rate.sets === 0) return "No set has two primary grades yet.";
  return `So far: escalated ${rate.triggered} of ${rate.sets} sets with two primary grades (${Math.round((100 * rate.triggered) / rate.sets)}%).`;
}

/**
 * Per rubric and dimension: when a third grader is called, and whether one
 * grader's N/A against another's value counts, with how often the rule in
 * force triggered on the grades so far. Disabled once the study is closed.
 */
export function EscalationSettings({
  docs,
  choices,
  onChange,
  rates,
  frozen,
  error,
}: {
  docs: RubricDocument[];
  choices: RuleChoices;
  onChange: (rubric: string, dimension: string, choice: RuleChoice) => void;
  rates?: TriggerRates;
  /** Why the rules cannot change (the study is closed), or null. */
  frozen: string | null;
  error: (key: string) => string | undefined;
}) {
  return (
    <fieldset className="flex flex-col gap-4" disabled={Boolean(frozen)} aria-describedby="study-escalation-hint">
      <legend className="mb-1 text-sm font-medium">Escalation to a third grader</legend>
      <p id="study-escalation-hint" className="text-xs text-muted-foreground">
        {frozen ??
          "For each dimension: when the primary graders' values call a third grader. Scale points; a dimension scored on each answer compares the graders' means over the answers. Editable until the study is closed."}
      </p>
      {docs
        .filter((r) => escalationDims(r).length > 0)
        .map((rubric) => (
          <fieldset key={rubric.key} className="rounded-md border border-border p-3">
            <legend className="px-1 text-sm font-medium">{rubric.name}</legend>
            <div className="flex flex-col gap-4">
              {escalationDims(rubric).map((d) => {
                const c = choices[rubric.key]?.[d.key] ?? initialChoice(d, undefined, undefined);
                const set = (patch: Partial<RuleChoice>) => onChange(rubric.key, d.key, { ...c, ...patch });
                const id = `escalation-${rubric.key}-${d.key}`;
                const tKey = `thresholds.${rubric.key}.${d.key}`;
                const rKey = `escalationRules.${rubric.key}.${d.key}`;
                const ordinal = d.scale.kind === "ordinal";
                const range = ordinal ? ordinalRange(d) : null;
                return (
                  <fieldset key={d.key} className="grid gap-2 sm:grid-cols-[minmax(0,12rem)_1fr]" data-testid={id}>
                    <legend className="sr-only">{d.name}</legend>
                    <p className="text-sm font-medium">
                      <span aria-hidden>{d.name}</span>
                      <span className="block text-xs font-normal text-muted-foreground">{range ? `scale ${range.min}-${range.max}` : "categories"}</span>
                    </p>
                    <div className="flex flex-col gap-2">
                      <div className="flex flex-wrap items-end gap-3">
                        <Field id={`${id}-rule`} label="Escalate" error={error(`${rKey}.rule`) ?? error(rKey)}>
                          <select
                            id={`${id}-rule`}
                            value={c.rule}
                            onChange={(e) => set({ rule: e.target.value as RuleChoice["rule"] })}
                            className="h-9 rounded-md border border-input bg-background px-2 text-sm"
                          >
                            {(["never", "any", ...(ordinal ? ["spread"] : [])] as RuleChoice["rule"][]).map((r) => (
                              <option key={r} value={r}>
                                {RULE_LABEL[r]}
                              </option>
                            ))}
                          </select>
                        </Field>
                        {c.rule === "spread" && range ? (
                          <Field id={`${id}-threshold`} label="Spread (points)" error={error(tKey)} className="w-28">
                            <Input
                              id={`${id}-threshold`}
                              type="number"
                              inputMode="decimal"
                              min={0}
                              max={range.max - range.min}
                              step={0.25}
                              value={c.threshold}
                              onChange={(e) => set({ threshold: e.target.value })}
                              aria-invalid={Boolean(error(tKey))}
                              aria-describedby={describedBy(`${id}-threshold`, undefined, error(tKey))}
                            />
                          </Field>
                        ) : null}
                        {d.scale.allowNA && c.rule !== "never" ? (
                          <Field id={`${id}-na`} label="N/A against a value" error={error(`${rKey}.na`)}>
                            <select
                              id={`${id}-na`}
                              value={c.na}
                              onChange={(e) => set({ na: e.target.value as RuleChoice["na"] })}
                              className="h-9 rounded-md border border-input bg-background px-2 text-sm"
                            >
                              <option value="escalate">Escalates</option>
                              <option value="ignore">Is left out</option>
                            </select>
                          </Field>
                        ) : null}
                      </div>
                      <p className="text-xs text-muted-foreground" data-testid={`${id}-rate`}>
                        {rateText(rates?.[`${rubric.key}.${d.key}`])}
                      </p>
                    </div>
                  </fieldset>
                );
              })}
            </div>
            <FieldError id={`thresholds-${rubric.key}`} error={error(`thresholds.${rubric.key}`) ?? error(`escalationRules.${rubric.key}`)} />
          </fieldset>
        ))}
      <FieldError id="thresholds" error={error("thresholds") ?? error("escalationRules")} />
    </fieldset>
  );
}
