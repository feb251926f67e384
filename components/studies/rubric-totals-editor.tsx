"use client";

import { Plus, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { whyNotCounted, type RubricDimension, type RubricProblem, type RubricTotal } from "@/lib/rubrics/document";
import { keyOf, type SumTotal } from "./rubric-draft";
import { FieldProblems, invalidProps, problemsAt } from "./rubric-problems";

const METHODS: { value: RubricTotal["method"]; label: string }[] = [
  { value: "sum", label: "Sum of the dimensions" },
  { value: "percent_applicable", label: "Percent of the applicable items (N/A excluded)" },
  { value: "criteria_score", label: "Criteria score (points met / positive points)" },
];

const selectClass = "h-9 rounded-md border border-border bg-background px-2";

/** A total of another method, keeping its key and name (and its dimensions where the new method counts dimensions). */
function withMethod(t: RubricTotal, method: RubricTotal["method"], dims: RubricDimension[]): RubricTotal {
  const base = { key: t.key, name: t.name };
  const keys = t.method === "criteria_score" ? [] : t.dimensions;
  if (method === "criteria_score") return { ...base, method, dimension: dims.find((d) => d.scale.kind === "criteria")?.key ?? "" };
  if (method === "sum") return { ...base, method, dimensions: keys };
  return { ...base, method, dimensions: keys };
}

/**
 * The rubric's totals: the automatic sum (kept in step with the dimensions
 * until the lead edits it), the lead's own (a sum with optional bands, a
 * percent of the applicable items, a criteria score), and the headline.
 * Fields the builder has no control for (a sum's `across`) stay as they are.
 */
export function TotalsEditor({
  domId: id,
  sum,
  dimensions,
  auto,
  totals,
  fixedKeys,
  headline,
  problems,
  onAuto,
  onTotals,
  onHeadline,
}: {
  domId: string;
  sum: boolean;
  dimensions: RubricDimension[];
  /** The automatic sum, when it is on and there is something to sum. */
  auto: SumTotal | null;
  totals: RubricTotal[];
  /** Keys of the totals the document had when the builder opened: exports and dashboards name them, so they do not follow a new name. */
  fixedKeys: ReadonlySet<string>;
  headline: string | undefined;
  problems: RubricProblem[];
  onAuto: (on: boolean, materialise?: RubricTotal) => void;
  onTotals: (totals: RubricTotal[]) => void;
  onHeadline: (key: string) => void;
}) {
  // The automatic total comes first in the document: the lead's totals' paths start after it.
  const offset = auto ? 1 : 0;
  const all = [...(auto ? [auto] : []), ...totals];
  const setTotal = (k: number, next: RubricTotal) => {
    if (headline === totals[k].key && next.key !== totals[k].key) onHeadline(next.key);
    onTotals(totals.map((t, j) => (j === k ? next : t)));
  };
  const headlineProblems = problemsAt(problems, "headline");
  return (
    <fieldset className="flex flex-col gap-3 rounded-md border border-border p-3 text-sm">
      <legend className="px-1 font-medium">Totals</legend>
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={sum} onChange={(e) => onAuto(e.target.checked)} />
        Automatic total: the sum of the scored dimensions
      </label>
      {auto ? (
        <div className="flex flex-wrap items-center gap-2">
          <span>
            {auto.name}: {auto.dimensions.length} dimension{auto.dimensions.length === 1 ? "" : "s"}, kept in step with them.
          </span>
          <Button type="button" variant="outline" size="sm" onClick={() => onAuto(false, auto)}>
            Edit this total
          </Button>
        </div>
      ) : null}
      <FieldProblems id={`${id}-auto-problems`} problems={auto ? problemsAt(problems, "totals.0", true) : []} />
      {totals.map((t, k) => {
        const path = `totals.${k + offset}`;
        const at = `${id}-t${k}`;
        const nameProblems = [...problemsAt(problems, `${path}.key`), ...problemsAt(problems, `${path}.name`)];
        const dimProblems = [...problemsAt(problems, `${path}.dimensions`, true), ...problemsAt(problems, `${path}.dimension`)];
        const methodProblems = problemsAt(problems, `${path}.method`);
        const acrossProblems = problemsAt(problems, `${path}.across`, true);
        return (
          <div key={k} role="group" aria-label={`Total ${k + 1 + offset}`} className="flex flex-col gap-2 rounded-md border border-border p-2">
            <div className="flex flex-wrap items-end gap-2">
              <div className="flex flex-1 flex-col gap-1">
                <label htmlFor={`${at}-name`}>Total {k + 1 + offset} name</label>
                <Input
                  id={`${at}-name`}
                  value={t.name}
                  maxLength={120}
                  // A new total's key follows its name; an imported one keeps its key (exports and dashboards name it).
                  onChange={(e) => setTotal(k, { ...t, name: e.target.value, ...(fixedKeys.has(t.key) ? {} : { key: keyOf(e.target.value, `total_${k + 1 + offset}`) }) })}
                  {...invalidProps(`${at}-name-problems`, nameProblems)}
                />
              </div>
              <div className="flex flex-col gap-1">
                <label htmlFor={`${at}-method`}>Total {k + 1 + offset} method</label>
                <select id={`${at}-method`} className={selectClass} value={t.method} onChange={(e) => setTotal(k, withMethod(t, e.target.value as RubricTotal["method"], dimensions))} {...invalidProps(`${at}-method-problems`, methodProblems)}>
                  {METHODS.map((m) => (
                    <option key={m.value} value={m.value}>
                      {m.label}
                    </option>
                  ))}
                </select>
              </div>
              <Button type="button" variant="ghost" size="sm" aria-label={`Remove the total ${t.name}`} onClick={() => onTotals(totals.filter((_, j) => j !== k))}>
                <X aria-hidden className="size-4" />
              </Button>
            </div>
            <p className="text-xs text-muted-foreground">
              Key <code>{t.key}</code>
            </p>
            <FieldProblems id={`${at}-name-problems`} problems={nameProblems} />
            <FieldProblems id={`${at}-method-problems`} problems={methodProblems} />
            {t.method === "criteria_score" ? (
              <div className="flex flex-col gap-1">
                <label htmlFor={`${at}-dimension`}>Criteria dimension of {t.name}</label>
                <select id={`${at}-dimension`} className={selectClass} value={t.dimension} onChange={(e) => setTotal(k, { ...t, dimension: e.target.value })} {...invalidProps(`${at}-dims-problems`, dimProblems)}>
                  <option value="">Choose…</option>
                  {dimensions
                    .filter((d) => d.scale.kind === "criteria")
                    .map((d) => (
                      <option key={d.key} value={d.key}>
                        {d.name}
                      </option>
                    ))}
                </select>
              </div>
            ) : (
              <fieldset className="flex flex-wrap gap-x-4 gap-y-1" {...invalidProps(`${at}-dims-problems`, dimProblems)}>
                <legend className="text-xs text-muted-foreground">Dimensions of {t.name}</legend>
                {dimensions.map((d, j) => {
                  const checked = t.dimensions.includes(d.key);
                  // A dimension the method cannot count is offered greyed out, with why; one already ticked (imported) can still be unticked.
                  const why = whyNotCounted(d, t.method);
                  const whyId = `${at}-d${j}-why`;
                  return (
                    <span key={d.key} className="flex items-center gap-1">
                      <label className="flex items-center gap-1">
                        <input
                          type="checkbox"
                          checked={checked}
                          disabled={why !== null && !checked}
                          aria-describedby={why ? whyId : undefined}
                          onChange={(e) => {
                            // The document's order, whatever order they were ticked in.
                            const keys = e.target.checked ? dimensions.map((x) => x.key).filter((x) => x === d.key || t.dimensions.includes(x)) : t.dimensions.filter((x) => x !== d.key);
                            const across = t.method === "sum" && t.across ? Object.fromEntries(Object.entries(t.across).filter(([x]) => keys.includes(x))) : undefined;
                            setTotal(k, { ...t, dimensions: keys, ...(across ? { across } : {}) } as RubricTotal);
                          }}
                        />
                        <span className={why && !checked ? "text-muted-foreground" : undefined}>{d.name}</span>
                      </label>
                      {why ? (
                        <span id={whyId} className="text-xs text-muted-foreground">
                          ({why.replace(/^is /, "").replace(/: use percent_applicable$/, "")})
                        </span>
                      ) : null}
                    </span>
                  );
                })}
              </fieldset>
            )}
            <FieldProblems id={`${at}-dims-problems`} problems={dimProblems} />
            {t.method === "sum" && t.across ? (
              <p className="text-xs text-muted-foreground">
                Across the answers: {Object.entries(t.across).map(([d, how]) => `${d} by its ${how}`).join(", ")} (kept as imported).
              </p>
            ) : null}
            <FieldProblems id={`${at}-across-problems`} problems={acrossProblems} />
            {t.method === "sum" ? <Bands at={at} path={path} total={t} problems={problems} onChange={(bands) => {
                  const { bands: _old, ...rest } = t;
                  setTotal(k, bands.length ? { ...rest, bands } : rest);
                }} /> : null}
          </div>
        );
      })}
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => onTotals([...totals, { key: `total_${all.length + 1}`, name: `Total ${all.length + 1}`, method: "sum", dimensions: [] }])}>
          <Plus aria-hidden className="size-4" /> Add a total
        </Button>
      </div>
      {all.length ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-headline`}>Headline total</label>
          <select id={`${id}-headline`} className={selectClass} value={headline ?? all[0].key} onChange={(e) => onHeadline(e.target.value)} {...invalidProps(`${id}-headline-problems`, headlineProblems)}>
            {all.map((t, k) => (
              <option key={`${k}-${t.key}`} value={t.key}>
                {t.name}
              </option>
            ))}
          </select>
          <FieldProblems id={`${id}-headline-problems`} problems={headlineProblems} />
        </div>
      ) : null}
    </fieldset>
  );
}

type Band = { min: number; max: number; label: string };

/** A sum's named ranges (DISCERN's five), lowest first. */
function Bands({ at, path, total, problems, onChange }: { at: string; path: string; total: SumTotal; problems: RubricProblem[]; onChange: (bands: Band[]) => void }) {
  const bands = total.bands ?? [];
  const set = (j: number, patch: Partial<Band>) => onChange(bands.map((b, k) => (k === j ? { ...b, ...patch } : b)));
  const num = (v: string) => (v === "" ? Number.NaN : Number(v));
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="text-xs text-muted-foreground">Bands of {total.name} (optional, lowest first)</legend>
      {bands.map((b, j) => {
        const ps = problemsAt(problems, `${path}.bands.${j}`, true);
        const pid = `${at}-b${j}-problems`;
        return (
          <div key={j} role="group" aria-label={`Band ${j + 1} of ${total.name}`} className="flex flex-col gap-1">
            <div className="flex flex-wrap items-center gap-2">
              <Input aria-label={`Band ${j + 1} min`} type="number" className="w-20" value={Number.isNaN(b.min) ? "" : b.min} onChange={(e) => set(j, { min: num(e.target.value) })} {...invalidProps(pid, ps)} />
              <span aria-hidden>to</span>
              <Input aria-label={`Band ${j + 1} max`} type="number" className="w-20" value={Number.isNaN(b.max) ? "" : b.max} onChange={(e) => set(j, { max: num(e.target.value) })} {...invalidProps(pid, ps)} />
              <Input aria-label={`Band ${j + 1} label`} className="w-40" value={b.label} onChange={(e) => set(j, { label: e.target.value })} {...invalidProps(pid, ps)} />
              <Button type="button" variant="ghost" size="sm" aria-label={`Remove band ${j + 1} of ${total.name}`} onClick={() => onChange(bands.filter((_, k) => k !== j))}>
                <X aria-hidden className="size-4" />
              </Button>
            </div>
            <FieldProblems id={pid} problems={ps} />
          </div>
        );
      })}
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => {
            const last = bands[bands.length - 1];
            const min = last && Number.isFinite(last.max) ? last.max + 1 : 0;
            onChange([...bands, { min, max: min, label: `Band ${bands.length + 1}` }]);
          }}
        >
          Add a band to {total.name}
        </Button>
      </div>
    </fieldset>
  );
}
