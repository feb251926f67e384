"use client";

import { partOf } from "@/lib/grading/form-order";
import { bareTotalName, ordinalRange, rubricInstructions, type RubricDocument, type RubricTotal } from "@/lib/rubrics/document";
import {
  answerScores,
  cellKey,
  formatScore,
  type CellKey,
  type CellValue,
  type FormState,
  type GradingField,
  type LiveTotal,
  type PlacedProblems,
  type StudyShape,
} from "@/lib/grading/form-state";
import { DimensionField } from "./dimension-field";

/**
 * The grading form's rubric parts, laid out around the answers rather than
 * around the rubrics (issue 21, item 6): every answer is shown once, and each
 * answer's fields of every rubric sit beside it (AnswerFields); what is graded
 * across the answers comes after them (SetFields); the rubrics' instructions
 * and running totals come once, before them (RubricIntro). Where a dimension
 * is graded (answer 1, each answer, the whole set) comes from the rubric
 * documents.
 */

/** An answer labelled by its repetition only, its Markdown rendered on the server. */
export interface RenderedAnswer {
  repetition: number;
  body: React.ReactNode;
}

export interface FormParts {
  study: StudyShape;
  fields: GradingField[];
  state: FormState;
  problems: PlacedProblems;
  readOnly: boolean;
  answers: RenderedAnswer[];
  totals: LiveTotal[];
  onScore: (key: CellKey, value: CellValue) => void;
  onComment: (key: CellKey, text: string) => void;
  onCommentBlur: () => void;
}

/** The dimensions graded together sit in one panel, one row each. */
const PANEL = "flex flex-col divide-y divide-border rounded-lg border border-border bg-background shadow-sm";

/** Which answer a field belongs beside: its repetition for each-answer dimensions, 1 for first-answer ones, 0 (the whole set) otherwise. */
export function answerOfField(f: GradingField): number {
  return partOf(f.dimension.scope, f.repetition);
}

/** The total a rubric scores answer by answer (`perAnswer`): each answer shows its own value, and the set a table of them. */
const perAnswerTotal = (r: RubricDocument): Extract<RubricTotal, { method: "sum" }> | undefined =>
  r.totals.find((t): t is Extract<RubricTotal, { method: "sum" }> => t.method === "sum" && t.perAnswer === true);

function Field({ f, scopeLabel, p }: { f: GradingField; scopeLabel: string; p: FormParts }) {
  return (
    <DimensionField
      field={f}
      scopeLabel={scopeLabel}
      value={p.state.scores[f.key]}
      comment={p.state.comments[f.key] ?? ""}
      error={p.problems.fields[f.key]}
      readOnly={p.readOnly}
      onChange={(v) => p.onScore(f.key, v)}
      onComment={(t) => p.onComment(f.key, t)}
      onCommentBlur={p.onCommentBlur}
    />
  );
}

function TotalBox({ label, value, max, note, testId }: { label: string; value: string; max: number; note?: string; testId: string }) {
  return (
    <div className="rounded-lg border border-border bg-muted/50 px-3 py-1.5 text-right" data-testid={testId}>
      <p className="text-xs font-medium text-muted-foreground">{label}</p>
      <p className="text-xl font-semibold tabular-nums leading-tight">
        {value}
        <span className="text-sm font-normal text-muted-foreground"> / {max}</span>
      </p>
      {note ? <p className="text-xs text-muted-foreground">{note}</p> : null}
    </div>
  );
}

/** Each rubric once, before the answers: what it asks (its document's instructions) and its running total(s). */
export function RubricIntro(p: FormParts & { rubric: RubricDocument }) {
  const r = p.rubric;
  const n = p.answers.length;
  const id = `rubric-${r.key.toLowerCase().replaceAll("_", "-")}`;
  const byAnswer = n > 1 ? perAnswerTotal(r) : undefined;
  const own = p.totals.filter((t) => t.rubric === r.key);
  // A total scored answer by answer leads, as the mean of its answers (each answer's value sits beside it).
  const shown = byAnswer ? own.filter((t) => t.key === byAnswer.key) : own;
  const totals = shown.length ? (
    <div className="flex flex-wrap gap-2">
      {shown.map((t) => {
        const inAnswers = byAnswer?.key === t.key;
        const dims = inAnswers ? byAnswer.dimensions.map((k) => r.dimensions.find((d) => d.key === k)!) : [];
        const each = dims.filter((d) => d.scope === "each_answer").length;
        const rest = dims.filter((d) => d.scope !== "each_answer").map((d) => d.name.toLowerCase());
        return (
          <TotalBox
            key={t.key}
            testId={`total-${r.key}-${t.key}`}
            label={inAnswers ? `Mean of the ${n} answers` : bareTotalName(t.name) /* the box says "/ 25" itself */}
            value={t.value !== null ? formatScore(t.value) : !inAnswers && t.partial ? formatScore(t.partial.sum) : "—"}
            max={t.max}
            note={
              inAnswers
                ? `${each} ${each === 1 ? "dimension" : "dimensions"} per answer${rest.length ? ` + ${rest.join(", ")}` : ""}`
                : t.partial
                  ? t.partial.scored < t.partial.of
                    ? `${t.partial.scored} of ${t.partial.of} dimensions scored`
                    : "all dimensions scored"
                  : undefined
            }
          />
        );
      })}
    </div>
  ) : null;
  return (
    <section aria-labelledby={id} data-rubric={r.key} className="flex min-w-0 flex-wrap items-start justify-between gap-3 rounded-lg border border-border bg-background p-4">
      {/* min-w-0 and anywhere-wrapping: a long word or address in the instructions wraps instead of widening a phone's page. */}
      <div className="max-w-2xl min-w-0 flex-1 basis-60">
        <p className="text-xs font-semibold uppercase tracking-wider text-primary">Rubric</p>
        <h2 id={id} className="text-lg font-semibold tracking-tight">
          {r.name}
        </h2>
        <p className="mt-1 text-sm whitespace-pre-line text-muted-foreground [overflow-wrap:anywhere]">
          {rubricInstructions(r)} <span>Source: {r.source ?? "the study's own rubric"}.</span>
        </p>
      </div>
      {totals}
    </section>
  );
}

/** The points of one answer's own dimensions in a per-answer total (those scored on each answer), null until all are given. */
function pointsOf(rubric: RubricDocument, total: Extract<RubricTotal, { method: "sum" }>, state: FormState, repetition: number): number | null {
  const xs = rubric.dimensions.filter((d) => d.scope === "each_answer" && total.dimensions.includes(d.key)).map((d) => state.scores[cellKey(rubric.key, d.key, repetition)]);
  return xs.some((x) => typeof x !== "number") ? null : (xs as number[]).reduce((a, b) => a + b, 0);
}

/** What a per-answer total still waits for besides the answer's own points ("consistency pending"). */
const pendingOf = (rubric: RubricDocument, total: Extract<RubricTotal, { method: "sum" }>) =>
  rubric.dimensions.filter((d) => d.scope !== "each_answer" && total.dimensions.includes(d.key)).map((d) => d.name.toLowerCase());

/** One answer's value of a per-answer total, live: its points plus what the set adds. */
function AnswerTotal({ p, rubric, total, repetition }: { p: FormParts; rubric: RubricDocument; total: Extract<RubricTotal, { method: "sum" }>; repetition: number }) {
  const t = answerScores(p.state, p.study, rubric.key, total.key);
  const max = p.totals.find((x) => x.rubric === rubric.key && x.key === total.key)?.max ?? 0;
  const value = t.answers[repetition - 1] ?? null;
  const pts = pointsOf(rubric, total, p.state, repetition);
  const pending = pendingOf(rubric, total);
  return (
    <p className="text-xs text-muted-foreground tabular-nums" data-testid={`answer-total-${rubric.key}-${repetition}`}>
      Answer {repetition} score: <span className="font-semibold text-foreground">{value === null ? "—" : formatScore(value)}</span> / {max}
      {value === null && pts !== null && pending.length ? <span> ({pts} points, {pending.join(" and ")} pending)</span> : null}
    </p>
  );
}

/** Every field graded on one answer, rubric by rubric, to sit beside that answer. */
export function AnswerFields(p: FormParts & { repetition: number }) {
  const label = `Answer ${p.repetition}`;
  const groups = p.study.rubrics.filter((r) => p.fields.some((f) => f.rubric === r.key && answerOfField(f) === p.repetition)).length;
  // Two rubrics on one answer sit side by side on a wide screen: the row is as tall as one rubric's fields, not both.
  return (
    <div className={groups > 1 ? "grid items-start gap-4 xl:grid-cols-2" : "flex flex-col gap-4"}>
      {p.study.rubrics.map((r) => {
        const fields = p.fields.filter((f) => f.rubric === r.key && answerOfField(f) === p.repetition);
        if (!fields.length) return null;
        const firstOnly = fields.every((f) => f.dimension.scope === "first_answer") && p.answers.length > 1;
        return (
          <div key={r.key} className="flex flex-col gap-2" data-rubric-fields={r.key}>
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h4 className="text-sm font-semibold">
                {r.name}
                {firstOnly ? <span className="font-normal text-muted-foreground"> · graded on Answer 1 only</span> : null}
              </h4>
              {perAnswerTotal(r) && p.answers.length > 1 ? <AnswerTotal p={p} rubric={r} total={perAnswerTotal(r)!} repetition={p.repetition} /> : null}
            </div>
            <div className={PANEL}>{fields.map((f) => (f.criterion ? <CriterionField key={f.key} f={f} p={p} /> : <Field key={f.key} f={f} p={p} scopeLabel={label} />))}</div>
          </div>
        );
      })}
    </div>
  );
}

/** Whether anything is graded or shown for the whole set (after the answers). */
export const hasSetPart = (p: Pick<FormParts, "fields" | "study">) =>
  p.fields.some((f) => answerOfField(f) === 0) || p.study.rubrics.some((r) => perAnswerTotal(r) && p.study.repetitions > 1);

/** What is graded across the answers, once, after them: the answers are read just above (or in the tabs before this one). */
export function SetFields(p: FormParts) {
  const n = p.answers.length;
  return (
    <div className="flex flex-col gap-4">
      {p.study.rubrics.map((r) => {
        const fields = p.fields.filter((f) => f.rubric === r.key && answerOfField(f) === 0);
        const byAnswer = perAnswerTotal(r);
        if (byAnswer && n > 1) return <AnswerTotalsSummary key={r.key} p={p} rubric={r} total={byAnswer} fields={fields} />;
        if (!fields.length) return null;
        return (
          <div key={r.key} className="flex flex-col gap-2" data-rubric-fields={r.key}>
            <h4 className="text-sm font-semibold">{r.name}</h4>
            <div className={PANEL}>{fields.map((f) => (f.criterion ? <CriterionField key={f.key} f={f} p={p} /> : <Field key={f.key} f={f} p={p} scopeLabel={`All ${n} answers together`} />))}</div>
          </div>
        );
      })}
    </div>
  );
}

/** A per-answer total across the answers: what is derived from them, the rubric's set fields, and each answer's value with their mean. */
function AnswerTotalsSummary({ p, rubric, total, fields }: { p: FormParts; rubric: RubricDocument; total: Extract<RubricTotal, { method: "sum" }>; fields: GradingField[] }) {
  const live = p.totals.find((t) => t.rubric === rubric.key && t.key === total.key);
  const t = { ...answerScores(p.state, p.study, rubric.key, total.key), mean: live?.value ?? null, max: live?.max ?? 0 };
  const derived = rubric.dimensions.filter((d) => d.derived);
  const added = rubric.dimensions.filter((d) => d.scope !== "each_answer" && total.dimensions.includes(d.key));
  // What the set adds to every answer's points (the same for each answer).
  const addedXs = added.map((d) => (d.derived ? t.derived[d.key] : p.state.scores[cellKey(rubric.key, d.key, d.scope === "set" ? 0 : 1)]));
  const extra = addedXs.some((x) => typeof x !== "number") ? null : (addedXs as number[]).reduce((a, b) => a + b, 0);
  const n = p.answers.length;
  return (
    <div className="flex flex-col gap-2" data-rubric-fields={rubric.key}>
      <h4 className="text-sm font-semibold">{rubric.name}</h4>
      {fields.length ? <div className={PANEL}>{fields.map((f) => <Field key={f.key} f={f} p={p} scopeLabel={`All ${n} answers together`} />)}</div> : null}
      <div className="grid gap-4 md:grid-cols-2">
        {derived.map((d) => {
          const value = t.derived[d.key];
          const of = rubric.dimensions.find((x) => x.key === d.derived!.of);
          const ofName = (of?.name ?? d.derived!.of).toLowerCase();
          const xs = p.answers.map((a) => p.state.scores[cellKey(rubric.key, d.derived!.of, a.repetition)]);
          const { min, max } = ordinalRange(d);
          return (
            <div key={d.key} className="rounded-lg border border-border bg-muted/40 p-4" data-testid={`derived-${rubric.key}-${d.key}`}>
              <p className="flex items-baseline justify-between gap-2">
                <span className="text-[0.9375rem] font-semibold">{d.name}</span>
                <span className="text-xs text-muted-foreground">
                  derived, {min}–{max}
                </span>
              </p>
              <p className="mt-1 text-sm text-muted-foreground">{d.definition}</p>
              <p className="mt-3 text-sm" aria-live="polite" aria-atomic="true">
                {value === null ? (
                  <span className="text-muted-foreground">Shown once every answer has a{/^[aeiou]/.test(ofName) ? "n" : ""} {ofName} score.</span>
                ) : (
                  <>
                    <span className="mr-2 inline-flex size-7 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground tabular-nums">
                      {value}
                    </span>
                    {value === 1 ? `Your ${ofName} scores are equal across the answers` : `Your ${ofName} scores differ between the answers`} (
                    {xs.map((v) => v ?? "–").join(", ")}).
                  </>
                )}
              </p>
            </div>
          );
        })}
        <div className="self-start overflow-hidden rounded-lg border border-border">
          <table className="w-full text-sm">
            <caption className="sr-only">{bareTotalName(total.name)}: each answer&apos;s score</caption>
            <thead className="bg-muted/60 text-left text-xs text-muted-foreground">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Answer
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Points
                </th>
                {added.length ? (
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    {added.map((d) => d.name).join(" + ")}
                  </th>
                ) : null}
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Score / {t.max}
                </th>
              </tr>
            </thead>
            <tbody className="tabular-nums">
              {p.answers.map((a, i) => {
                const pts = pointsOf(rubric, total, p.state, a.repetition);
                return (
                  <tr key={a.repetition} className="border-t border-border">
                    <th scope="row" className="px-3 py-1.5 text-left font-normal">
                      Answer {a.repetition}
                    </th>
                    <td className="px-3 py-1.5 text-right">{pts ?? "—"}</td>
                    {added.length ? <td className="px-3 py-1.5 text-right">{extra ?? "—"}</td> : null}
                    <td className="px-3 py-1.5 text-right font-medium">{t.answers[i] === null ? "—" : formatScore(t.answers[i]!)}</td>
                  </tr>
                );
              })}
              <tr className="border-t border-border bg-muted/40">
                <th scope="row" className="px-3 py-1.5 text-left font-semibold">
                  Mean
                </th>
                <td colSpan={added.length ? 2 : 1} />
                <td className="px-3 py-1.5 text-right font-semibold">{t.mean === null ? "—" : formatScore(t.mean)}</td>
              </tr>
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}

/** A criterion of the question (HealthBench): ticked when the answer meets it; Space toggles it. */
function CriterionField({ f, p }: { f: GradingField; p: FormParts }) {
  const met = p.state.scores[f.key] === 1;
  const c = f.criterion!;
  return (
    <label className="flex items-start gap-3 px-4 py-3" data-cell={f.key}>
      <input
        type="checkbox"
        className="mt-1 size-4"
        checked={met}
        disabled={p.readOnly}
        onChange={(e) => p.onScore(f.key, e.target.checked ? 1 : 0)}
      />
      <span className="text-sm">
        {c.text} <span className="tabular-nums text-muted-foreground">({c.points > 0 ? `+${c.points}` : c.points} points)</span>
      </span>
    </label>
  );
}
