"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { apiRequest } from "@/components/studies/api-client";
import { describedBy, Field } from "@/components/studies/form-field";

type Target = "icc" | "alpha" | "kappa" | "difference" | "pairwise";

interface Answer {
  target: Target;
  sets: number;
  method: string;
  assumptions: string[];
  details: Record<string, number>;
}

interface FieldSpec {
  name: string;
  label: string;
  hint: string;
  initial: string;
  optional?: boolean;
}

const TARGETS: { value: Target; label: string; unit: string; fields: FieldSpec[] }[] = [
  {
    value: "icc",
    label: "Agreement between graders (ICC)",
    unit: "sets",
    fields: [
      { name: "expected", label: "Expected ICC", hint: "From a pilot or the literature, between 0 and 1.", initial: "0.7" },
      { name: "graders", label: "Graders per set", hint: "k, at least 2.", initial: "2" },
      { name: "ciWidth", label: "Width of the 95% interval", hint: "Full width: 0.2 means about ±0.1.", initial: "0.2" },
    ],
  },
  {
    value: "alpha",
    label: "Internal consistency (Cronbach's alpha)",
    unit: "answers",
    fields: [
      { name: "expected", label: "Expected alpha", hint: "Between 0 and 1.", initial: "0.7" },
      { name: "items", label: "Rubric dimensions", hint: "The items alpha is computed over.", initial: "5" },
      { name: "ciWidth", label: "Width of the 95% interval", hint: "Full width.", initial: "0.2" },
    ],
  },
  {
    value: "kappa",
    label: "Agreement on a yes/no item (kappa)",
    unit: "sets",
    fields: [
      { name: "expected", label: "Expected kappa", hint: "Between 0 and 1.", initial: "0.6" },
      { name: "prevalence", label: "Share of 'yes'", hint: "How often the item is expected to apply, between 0 and 1.", initial: "0.3" },
      { name: "ciWidth", label: "Width of the 95% interval", hint: "Full width.", initial: "0.3" },
    ],
  },
  {
    value: "difference",
    label: "A difference between two models",
    unit: "answers per model",
    fields: [
      { name: "cliffsDelta", label: "Cliff's delta to detect", hint: "0.147 small, 0.33 medium, 0.474 large. Leave empty to give a mean difference instead.", initial: "0.33", optional: true },
      { name: "meanDifference", label: "Or: difference in the mean total", hint: "With the SD below.", initial: "", optional: true },
      { name: "sd", label: "SD of the total", hint: "Within one model.", initial: "", optional: true },
      { name: "power", label: "Power", hint: "Usually 0.8 or 0.9.", initial: "0.8" },
    ],
  },
  {
    value: "pairwise",
    label: "Two models in a pairwise preference study",
    unit: "comparisons of the two models",
    fields: [
      { name: "winProbability", label: "Share the stronger model wins", hint: "Of decisive comparisons, above 0.5.", initial: "0.6" },
      { name: "tieShare", label: "Expected share of ties", hint: "0 if graders must choose.", initial: "0.1" },
      { name: "power", label: "Power", hint: "Usually 0.8 or 0.9.", initial: "0.8" },
    ],
  },
];

/** The study planner: a target in, the number of sets with its method and assumptions out. */
export function PlannerForm() {
  const [target, setTarget] = useState<Target>("icc");
  const spec = TARGETS.find((t) => t.value === target)!;
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(TARGETS.flatMap((t) => t.fields.map((f) => [`${t.value}.${f.name}`, f.initial]))));
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const body: Record<string, unknown> = { target };
    for (const f of spec.fields) {
      const raw = values[`${target}.${f.name}`]?.trim() ?? "";
      if (raw === "" && f.optional) continue;
      body[f.name] = Number(raw);
    }
    const result = await apiRequest<Answer>("POST", "/api/v1/planner", body);
    setBusy(false);
    if (result.ok) {
      setAnswer(result.data);
      setFieldErrors({});
    } else {
      setAnswer(null);
      setError(result.error);
      setFieldErrors(result.fieldErrors);
    }
  }

  return (
    <div className="flex flex-col gap-6">
      <form onSubmit={submit} className="flex max-w-xl flex-col gap-4" aria-describedby={error ? "planner-error" : undefined}>
        <Field id="planner-target" label="What do you want to estimate or detect?">
          <select
            id="planner-target"
            className="h-9 rounded-md border border-border bg-background px-3 text-sm"
            value={target}
            onChange={(e) => {
              setTarget(e.target.value as Target);
              setAnswer(null);
              setError(null);
              setFieldErrors({});
            }}
          >
            {TARGETS.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </Field>
        {spec.fields.map((f) => {
          const id = `planner-${f.name}`;
          return (
            <Field key={`${target}.${f.name}`} id={id} label={f.label} hint={f.hint} error={fieldErrors[f.name]}>
              <Input
                id={id}
                inputMode="decimal"
                value={values[`${target}.${f.name}`] ?? ""}
                aria-describedby={describedBy(id, f.hint, fieldErrors[f.name])}
                aria-invalid={fieldErrors[f.name] ? true : undefined}
                onChange={(e) => setValues((v) => ({ ...v, [`${target}.${f.name}`]: e.target.value }))}
              />
            </Field>
          );
        })}
        <div>
          <Button type="submit" disabled={busy}>
            {busy ? "Working it out…" : "Plan"}
          </Button>
        </div>
        {error ? (
          <p id="planner-error" role="alert" className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
      </form>
      {answer ? (
        <section aria-live="polite" aria-label="Planner answer" className="flex max-w-2xl flex-col gap-2 rounded-md border border-border p-4">
          <p className="text-lg font-semibold" data-testid="planner-sets">
            {answer.sets.toLocaleString("en")} {spec.unit}
          </p>
          <p className="text-sm">{answer.method}.</p>
          <ul className="list-disc pl-5 text-sm text-muted-foreground">
            {answer.assumptions.map((a) => (
              <li key={a}>{a}</li>
            ))}
          </ul>
          {answer.details.powerReached !== undefined ? (
            <p className="text-sm text-muted-foreground">
              Power reached at this size: {answer.details.powerReached.toFixed(3)} (Monte Carlo standard error {answer.details.monteCarloSE.toFixed(3)}).
            </p>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
