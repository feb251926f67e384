"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { apiRequest } from "@/components/studies/api-client";
import { describedBy, Field } from "@/components/studies/form-field";

type Target = "icc" | "alpha" | "kappa" | "difference" | "pairwise" | "dstudy";

interface Answer {
  target: Target;
  sets: number;
  method: string;
  assumptions: string[];
  details: Record<string, number>;
  gStudy?: { design: string; components: { source: string; variance: number; share: number }[] };
  dStudy?: { graders: number; relative: number | null; absolute: number | null; answers: number | null; sets: number | null }[];
}

const fixed = (v: number | null, digits = 3) => (v === null ? "–" : v.toFixed(digits));

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
    label: "Agreement on a categorical item (Cohen's or Fleiss' kappa)",
    unit: "sets",
    fields: [
      { name: "expected", label: "Expected kappa", hint: "Between 0 and 1.", initial: "0.6" },
      { name: "graders", label: "Graders per set", hint: "2 for Cohen's kappa; more for Fleiss' kappa.", initial: "2" },
      {
        name: "proportions",
        label: "Share of each category",
        hint: "One share per category, separated by commas, adding up to 1: “0.3, 0.7” is a yes/no item that applies 30% of the time; “0.2, 0.5, 0.3” has three categories.",
        initial: "0.3, 0.7",
      },
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
  {
    value: "dstudy",
    label: "More or fewer graders, from a pilot study's grades (D-study)",
    unit: "sets at the pilot's graders per set",
    fields: [
      { name: "dimension", label: "Dimension key", hint: "An ordinal dimension; empty: the rubric's first.", initial: "", optional: true },
      { name: "ciWidth", label: "Width of the 95% interval of the ICC", hint: "Full width, for the sets column.", initial: "0.2" },
    ],
  },
];
const TEXT_FIELDS = new Set(["dimension"]);
/** Fields holding a list of numbers, separated by commas (or spaces). */
const LIST_FIELDS = new Set(["proportions"]);

/** The first error the API named at a field or inside it (`proportions.1`). */
const errorAt = (errors: Record<string, string>, name: string) => errors[name] ?? Object.entries(errors).find(([path]) => path.startsWith(`${name}.`))?.[1];

/** The study planner: a target in, the number of sets with its method and assumptions out. */
export function PlannerForm({ studies }: { studies: { id: string; name: string }[] }) {
  const [target, setTarget] = useState<Target>("icc");
  const spec = TARGETS.find((t) => t.value === target)!;
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(TARGETS.flatMap((t) => t.fields.map((f) => [`${t.value}.${f.name}`, f.initial]))));
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [studyId, setStudyId] = useState(studies[0]?.id ?? "");

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const body: Record<string, unknown> = { target };
    for (const f of spec.fields) {
      const raw = values[`${target}.${f.name}`]?.trim() ?? "";
      if (raw === "" && f.optional) continue;
      body[f.name] = TEXT_FIELDS.has(f.name)
        ? raw
        : LIST_FIELDS.has(f.name)
          ? raw
              .split(/[\s,;]+/)
              .filter(Boolean)
              .map(Number)
          : Number(raw);
    }
    if (target === "dstudy") body.studyId = studyId;
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
        {target === "dstudy" ? (
          <Field id="planner-studyId" label="Pilot study" hint="Its submitted grades give the variance components." error={fieldErrors.studyId}>
            <select id="planner-studyId" className="h-9 rounded-md border border-border bg-background px-3 text-sm" value={studyId} onChange={(e) => setStudyId(e.target.value)}>
              {studies.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        {spec.fields.map((f) => {
          const id = `planner-${f.name}`;
          const fieldError = errorAt(fieldErrors, f.name);
          return (
            <Field key={`${target}.${f.name}`} id={id} label={f.label} hint={f.hint} error={fieldError}>
              <Input
                id={id}
                inputMode={LIST_FIELDS.has(f.name) ? "text" : "decimal"}
                value={values[`${target}.${f.name}`] ?? ""}
                aria-describedby={describedBy(id, f.hint, fieldError)}
                aria-invalid={fieldError ? true : undefined}
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
          {answer.gStudy && answer.dStudy ? (
            <div className="flex flex-col gap-3 text-sm">
              <table className="w-fit">
                <caption className="text-left font-medium">Variance components ({answer.gStudy.design} design)</caption>
                <thead>
                  <tr>
                    <th scope="col" className="pr-4 text-left">Source</th>
                    <th scope="col" className="pr-4 text-right">Variance</th>
                    <th scope="col" className="text-right">Share</th>
                  </tr>
                </thead>
                <tbody>
                  {answer.gStudy.components.map((c) => (
                    <tr key={c.source}>
                      <td className="pr-4">{c.source}</td>
                      <td className="pr-4 text-right tabular-nums">{c.variance.toFixed(3)}</td>
                      <td className="text-right tabular-nums">{(c.share * 100).toFixed(1)}%</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <table className="w-fit" data-testid="planner-dstudy">
                <caption className="text-left font-medium">D-study: graders per set</caption>
                <thead>
                  <tr>
                    <th scope="col" className="pr-4 text-right">Graders</th>
                    <th scope="col" className="pr-4 text-right">Generalizability</th>
                    <th scope="col" className="pr-4 text-right">Dependability</th>
                    <th scope="col" className="text-right">Sets</th>
                  </tr>
                </thead>
                <tbody>
                  {answer.dStudy.map((d) => (
                    <tr key={d.graders}>
                      <td className="pr-4 text-right tabular-nums">{d.graders}</td>
                      <td className="pr-4 text-right tabular-nums">{fixed(d.relative)}</td>
                      <td className="pr-4 text-right tabular-nums">{fixed(d.absolute)}</td>
                      <td className="text-right tabular-nums">{d.sets === null ? "–" : d.sets.toLocaleString("en")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
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
