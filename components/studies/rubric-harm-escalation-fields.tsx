"use client";

import { Input } from "@/components/ui/input";
import type { RubricDimension, RubricProblem } from "@/lib/rubrics/document";
import { documentRule } from "@/lib/rubrics/escalation-rule";
import { decisionRequired, harmLine } from "@/lib/rubrics/harm-line";
import { FieldProblems, invalidProps } from "./rubric-problems";

const selectClass = "h-9 rounded-md border border-border bg-background px-2";
const optionalNumber = (v: string) => (v === "" ? undefined : Number(v));

/**
 * A dimension's escalation rule (never, any disagreement, a spread; what N/A
 * against a value does) and its harm line (direction, value, whether the
 * grader must decide), for the rubric builder. It writes the document's
 * `escalation` (dropping the older `threshold`) and harmAtOrBelow/harmAtOrAbove.
 */
export function HarmEscalationFields({
  d,
  at,
  problemsOf,
  onChange,
}: {
  d: RubricDimension;
  /** The dimension's DOM id prefix. */
  at: string;
  /** The problems at a path under the dimension ("escalation", "harmAtOrAbove"). */
  problemsOf: (path: string, deep?: boolean) => RubricProblem[];
  onChange: (patch: Partial<RubricDimension>) => void;
}) {
  if (d.scale.kind === "criteria" || d.derived) return null;
  const ordinal = d.scale.kind === "ordinal";
  const rule = documentRule(d);
  const threshold = d.escalation?.threshold ?? d.threshold;
  const setEscalation = (patch: Partial<NonNullable<RubricDimension["escalation"]>>) => {
    const next = { rule: rule.rule, ...(d.escalation?.na ? { na: d.escalation.na } : {}), ...(rule.rule === "spread" && threshold !== undefined ? { threshold } : {}), ...patch };
    if (next.rule !== "spread") delete next.threshold;
    else next.threshold ??= 1;
    onChange({ escalation: next, threshold: undefined });
  };
  const line = harmLine(d);
  const escalationProblems = problemsOf("escalation", true);
  const harmProblems = [...problemsOf("harmAtOrBelow"), ...problemsOf("harmAtOrAbove"), ...problemsOf("harmDecision")];
  return (
    <>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${at}-escalation`}>Call a third grader</label>
        <select
          id={`${at}-escalation`}
          className={selectClass}
          value={rule.rule}
          onChange={(e) => setEscalation({ rule: e.target.value as "never" | "any" | "spread" })}
          {...invalidProps(`${at}-escalation-problems`, escalationProblems)}
        >
          <option value="never">never</option>
          <option value="any">on any disagreement</option>
          {ordinal ? <option value="spread">at a spread of</option> : null}
        </select>
        <FieldProblems id={`${at}-escalation-problems`} problems={escalationProblems} />
      </div>
      {rule.rule === "spread" ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${at}-escalation-threshold`}>Spread (points)</label>
          <Input
            id={`${at}-escalation-threshold`}
            type="number"
            step={0.5}
            className="w-24"
            value={threshold ?? ""}
            onChange={(e) => setEscalation({ threshold: optionalNumber(e.target.value) })}
          />
        </div>
      ) : null}
      {d.scale.allowNA && rule.rule !== "never" ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${at}-escalation-na`}>N/A against a value</label>
          <select id={`${at}-escalation-na`} className={selectClass} value={rule.na} onChange={(e) => setEscalation({ na: e.target.value as "escalate" | "ignore" })}>
            <option value="escalate">escalates</option>
            <option value="ignore">is left out</option>
          </select>
        </div>
      ) : null}
      {ordinal ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${at}-harm-direction`}>Harm line</label>
          <div className="flex gap-2">
            <select
              id={`${at}-harm-direction`}
              className={selectClass}
              value={line?.direction ?? ""}
              onChange={(e) => {
                const at = line?.at;
                const v = e.target.value;
                onChange({
                  harmAtOrBelow: v === "at_or_below" ? (at ?? 1) : undefined,
                  harmAtOrAbove: v === "at_or_above" ? (at ?? 1) : undefined,
                  harmDecision: v === "" ? undefined : (d.harmDecision ?? "required"),
                });
              }}
              {...invalidProps(`${at}-harm-problems`, harmProblems)}
            >
              <option value="">none</option>
              <option value="at_or_below">at or below</option>
              <option value="at_or_above">at or above</option>
            </select>
            {line ? (
              <Input
                aria-label="Harm line value"
                type="number"
                step={1}
                className="w-20"
                value={line.at}
                onChange={(e) => onChange(line.direction === "at_or_above" ? { harmAtOrAbove: optionalNumber(e.target.value) } : { harmAtOrBelow: optionalNumber(e.target.value) })}
              />
            ) : null}
          </div>
          {line ? (
            <label className="flex items-center gap-2 text-xs">
              <input type="checkbox" checked={decisionRequired(d)} onChange={(e) => onChange({ harmDecision: e.target.checked ? "required" : "offered" })} />
              the grader must decide (flag, or not a harm with a reason)
            </label>
          ) : null}
          <FieldProblems id={`${at}-harm-problems`} problems={harmProblems} />
        </div>
      ) : null}
    </>
  );
}
