"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { apiRequest } from "@/components/studies/api-client";
import { describedBy, Field, FieldError, FormMessage, textareaClass } from "@/components/studies/form-field";

/** An ordinal dimension the grader types (never a derived one), as the study's rubric document gives it. */
export interface ExpectedDimension {
  rubric: string;
  rubricName: string;
  key: string;
  name: string;
  scope: "first_answer" | "each_answer" | "set";
  levels: { value: number; label: string }[];
}

export interface ExpectedCellValue {
  rubric: string;
  dimension: string;
  /** 0: the whole set. */
  repetition: number;
  score: number;
}

interface Pilot {
  sourceSetId: string | null;
  rule: string;
  expected: { rubric: string; dimension: string; repetition: number | null; score: number; grades: number; median: number }[];
  skipped: { rubric: string; dimension: string; repetition: number | null; reason: string }[];
}

const cellKey = (rubric: string, dimension: string, repetition: number) => `${rubric}/${dimension}/${repetition}`;
const selectClass =
  "h-9 rounded-md border border-border bg-background px-2 text-sm shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50";

/** The answers a dimension is graded on: 0 for the whole set. */
const repsOf = (d: ExpectedDimension, n: number) => (d.scope === "set" ? [0] : d.scope === "first_answer" ? [1] : Array.from({ length: n }, (_, i) => i + 1));
const where = (rep: number) => (rep === 0 ? "whole set" : `answer ${rep}`);

/**
 * Marks a set as a calibration or gold set (PUT quality-sets/{setId}): the purpose, an expected
 * score per ordinal dimension and answer drawn from the study's rubric documents, the tolerance and
 * the rationale graders read after a calibration round. The scores can be filled from a pilot
 * (GET pilot-expected), then reviewed. The API's 409 and 422 messages show at the fields.
 */
export function QualitySetForm({
  studyId,
  setId,
  dims,
  repetitions,
  initial,
  pilots,
}: {
  studyId: string;
  setId: string;
  dims: ExpectedDimension[];
  repetitions: number;
  initial: { purpose: "CALIBRATION" | "GOLD"; expected: ExpectedCellValue[]; tolerance: number; rationale: string } | null;
  pilots: { id: string; name: string }[];
}) {
  const router = useRouter();
  const [purpose, setPurpose] = useState<"CALIBRATION" | "GOLD">(initial?.purpose ?? "CALIBRATION");
  const [scores, setScores] = useState<Record<string, string>>(() => Object.fromEntries((initial?.expected ?? []).map((c) => [cellKey(c.rubric, c.dimension, c.repetition), String(c.score)])));
  const [tolerance, setTolerance] = useState(String(initial?.tolerance ?? 0));
  const [rationale, setRationale] = useState(initial?.rationale ?? "");
  const [pilotId, setPilotId] = useState(pilots[0]?.id ?? "");
  const [pilot, setPilot] = useState<Pilot | null>(null);
  const [pilotError, setPilotError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const cells = dims.flatMap((d) => repsOf(d, repetitions).map((rep) => ({ d, rep, key: cellKey(d.rubric, d.key, rep) })));

  async function fillFromPilot() {
    setPilotError(null);
    setPilot(null);
    let res: Response;
    try {
      res = await fetch(`/api/v1/studies/${studyId}/quality-sets/${setId}/pilot-expected?from=${encodeURIComponent(pilotId)}`, { credentials: "same-origin" });
    } catch {
      return setPilotError("The server could not be reached. Check your connection and try again.");
    }
    const body = (await res.json().catch(() => null)) as (Pilot & { error?: string }) | null;
    if (!res.ok || !body) return setPilotError(body?.error ?? `The request failed (HTTP ${res.status}).`);
    setPilot(body);
    setScores((s) => ({ ...s, ...Object.fromEntries(body.expected.map((c) => [cellKey(c.rubric, c.dimension, c.repetition ?? 0), String(c.score)])) }));
  }

  async function save(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setSuccess(null);
    const sent = cells.filter((c) => scores[c.key]);
    const body = {
      purpose,
      expected: sent.map((c) => ({ rubric: c.d.rubric, dimension: c.d.key, repetition: c.rep === 0 ? null : c.rep, score: Number(scores[c.key]) })),
      tolerance: tolerance.trim() === "" || Number.isNaN(Number(tolerance)) ? null : Number(tolerance),
      rationale,
    };
    const r = await apiRequest("PUT", `/api/v1/studies/${studyId}/quality-sets/${setId}`, body);
    setBusy(false);
    if (!r.ok) {
      // The schema names cells "expected.3.score", the instrument check "expected[3].score": both go to the cell they name.
      const mapped: Record<string, string> = {};
      for (const [path, message] of Object.entries(r.fieldErrors)) {
        const m = /^expected(?:\.|\[)(\d+)/.exec(path);
        const cell = m ? sent[Number(m[1])] : undefined;
        mapped[cell ? cell.key : path.split(".")[0]] ??= message;
      }
      setErrors(mapped);
      return setError(r.error);
    }
    setErrors({});
    setSuccess(`Marked as a ${purpose === "GOLD" ? "gold" : "calibration"} set with ${sent.length} expected ${sent.length === 1 ? "score" : "scores"}.`);
    router.refresh();
  }

  return (
    <form onSubmit={save} aria-labelledby="mark-heading" className="flex max-w-3xl flex-col gap-4 rounded-lg border p-4" noValidate>
      <h2 id="mark-heading" className="text-lg font-semibold">
        {initial ? "Change this quality set" : "Mark this set"}
      </h2>
      <fieldset className="flex flex-col gap-1">
        <legend className="text-sm font-medium">Purpose</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="purpose" value="CALIBRATION" checked={purpose === "CALIBRATION"} onChange={() => setPurpose("CALIBRATION")} />
          Calibration: graded before real work; graders see the expected scores and rationale after each round
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="purpose" value="GOLD" checked={purpose === "GOLD"} onChange={() => setPurpose("GOLD")} />
          Gold: slipped into graders&apos; queues unannounced, to measure accuracy
        </label>
      </fieldset>

      {pilots.length ? (
        <div className="flex flex-col gap-2 rounded-md bg-muted/40 p-3">
          <div className="flex flex-wrap items-end gap-2">
            <Field id="pilot" label="Fill the expected scores from a pilot study">
              <select id="pilot" className={selectClass} value={pilotId} onChange={(e) => setPilotId(e.target.value)} aria-describedby="pilot-hint">
                {pilots.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </Field>
            <Button type="button" variant="outline" onClick={fillFromPilot} disabled={!pilotId}>
              Fill from pilot
            </Button>
          </div>
          <p id="pilot-hint" className="text-xs text-muted-foreground">
            The pilot&apos;s set of the same question and model: the median of its submitted primary grades per dimension and answer, rounded to the nearest level (half-way:
            the higher); only answers whose text is the same; graders excluded from the pilot&apos;s analysis left out. Review them before saving.
          </p>
          {pilotError ? (
            <p role="alert" className="text-sm text-destructive">
              {pilotError}
            </p>
          ) : null}
          {pilot ? (
            <div role="status" className="text-sm">
              {pilot.sourceSetId ? `Filled ${pilot.expected.length} ${pilot.expected.length === 1 ? "score" : "scores"} from the pilot.` : "The pilot has no set of this question and model: nothing filled."}
              {pilot.skipped.length ? (
                <ul className="mt-1 list-disc pl-5 text-xs text-muted-foreground">
                  {pilot.skipped.map((s) => (
                    <li key={cellKey(s.rubric, s.dimension, s.repetition ?? 0)}>
                      {dims.find((d) => d.rubric === s.rubric && d.key === s.dimension)?.name ?? s.dimension}, {where(s.repetition ?? 0)}: {s.reason}
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
        </div>
      ) : null}

      <fieldset className="flex flex-col gap-3">
        <legend className="text-sm font-medium">Expected scores</legend>
        <p className="text-xs text-muted-foreground">One per ordinal dimension of the study&apos;s rubrics and answer it is graded on; leave a cell empty to leave it out.</p>
        {dims.map((d) => (
          <div key={`${d.rubric}/${d.key}`} className="flex flex-col gap-2" role="group" aria-labelledby={`dim-${d.rubric}-${d.key}`}>
            <p id={`dim-${d.rubric}-${d.key}`} className="text-sm font-medium">
              {d.name} <span className="font-normal text-muted-foreground">({d.rubricName})</span>
            </p>
            <div className="flex flex-wrap gap-3">
              {repsOf(d, repetitions).map((rep) => {
                const key = cellKey(d.rubric, d.key, rep);
                const id = `cell-${d.rubric}-${d.key}-${rep}`;
                return (
                  <div key={key} className="flex flex-col gap-1" data-cell={key}>
                    <label htmlFor={id} className="text-xs">
                      {d.name}, {where(rep)}
                    </label>
                    <select
                      id={id}
                      className={selectClass}
                      value={scores[key] ?? ""}
                      onChange={(e) => setScores((s) => ({ ...s, [key]: e.target.value }))}
                      aria-invalid={!!errors[key]}
                      aria-describedby={errors[key] ? `${id}-error` : undefined}
                    >
                      <option value="">—</option>
                      {d.levels.map((l) => (
                        <option key={l.value} value={l.value}>
                          {l.value}: {l.label}
                        </option>
                      ))}
                    </select>
                    <FieldError id={id} error={errors[key]} />
                  </div>
                );
              })}
            </div>
          </div>
        ))}
        <FieldError id="expected" error={errors.expected} />
      </fieldset>

      <Field id="tolerance" label="Tolerance (scale points)" hint="A score within this many points of the expected one counts as right (0 to 100)." error={errors.tolerance}>
        <Input id="tolerance" inputMode="numeric" className="max-w-32" value={tolerance} onChange={(e) => setTolerance(e.target.value)} aria-describedby={describedBy("tolerance", true, errors.tolerance)} aria-invalid={!!errors.tolerance} />
      </Field>
      <Field id="rationale" label="Rationale" hint="Why these scores: graders read it beside their own after a calibration round." error={errors.rationale}>
        <textarea id="rationale" className={textareaClass} value={rationale} maxLength={4000} onChange={(e) => setRationale(e.target.value)} aria-describedby={describedBy("rationale", true, errors.rationale)} aria-invalid={!!errors.rationale} />
      </Field>
      <FormMessage error={error} success={success} />
      <div>
        <Button type="submit" disabled={busy}>
          {purpose === "GOLD" ? "Save as a gold set" : "Save as a calibration set"}
        </Button>
      </div>
    </form>
  );
}
