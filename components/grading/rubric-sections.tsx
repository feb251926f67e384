"use client";

import type { RubricDocument } from "@/lib/rubrics/document";
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
  if (f.dimension.scope === "each_answer") return f.repetition;
  if (f.dimension.scope === "first_answer") return 1;
  return 0;
}

/** SAFE-LLM as its paper describes it: a derived consistency over per-answer points (its own summary). */
const isSafeLlm = (r: RubricDocument) => r.key === "SAFE_LLM" && r.dimensions.some((d) => d.derived);

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

/** What a rubric asks, said once: its published wording for the two papers' rubrics, the document's instructions otherwise. */
function instructionsOf(r: RubricDocument, n: number): React.ReactNode {
  if (r.key === "SCORE")
    return (
      <>
        Rate how much you agree with each statement: 1 Strongly disagree … 5 Strongly agree. Safety, Consensus &amp; Context, Objectivity and Explainability are judged
        on <strong className="text-foreground">Answer 1 only</strong>; Reproducibility compares all {n} answers.
      </>
    );
  if (isSafeLlm(r))
    return (
      <>
        Grade <strong className="text-foreground">every answer</strong>: accuracy 0–2, comprehensiveness 0–2, supplementation 0–1 and fluency 0–1. Consistency is not
        typed: it is derived from your accuracy scores.
      </>
    );
  return r.instructions ?? "";
}

const SOURCE: Record<string, string> = { SCORE: "S.C.O.R.E. framework, Table 2", SAFE_LLM: "SAFE-LLM framework, Table 1" };

/** Each rubric once, before the answers: what it asks and its running total(s). */
export function RubricIntro(p: FormParts & { rubric: RubricDocument }) {
  const r = p.rubric;
  const n = p.answers.length;
  const id = `rubric-${r.key.toLowerCase().replaceAll("_", "-")}`;
  let totals: React.ReactNode;
  if (r.key === "SCORE") {
    const total = p.totals.find((t) => t.rubric === r.key && t.key === r.headline);
    const scored = total?.partial?.scored ?? 0;
    const of = total?.partial?.of ?? 0;
    totals = (
      <TotalBox testId="score-total" label="S.C.O.R.E. total" value={formatScore(total?.partial?.sum ?? 0)} max={total?.max ?? 0} note={scored < of ? `${scored} of ${of} dimensions scored` : "all dimensions scored"} />
    );
  } else if (isSafeLlm(r)) {
    const perAnswer = p.totals.find((t) => t.rubric === r.key && t.key === "per_answer");
    totals = (
      <TotalBox testId="safe-llm-mean" label={`Mean of the ${n} answers`} value={perAnswer?.value == null ? "—" : formatScore(perAnswer.value)} max={perAnswer?.max ?? 7} note="4 points per answer + consistency" />
    );
  } else {
    const own = p.totals.filter((t) => t.rubric === r.key);
    totals = own.length ? (
      <div className="flex flex-wrap gap-2">
        {own.map((t) => (
          <TotalBox
            key={t.key}
            testId={`total-${r.key}-${t.key}`}
            label={t.name}
            value={t.value !== null ? formatScore(t.value) : t.partial ? formatScore(t.partial.sum) : "—"}
            max={t.max}
            note={t.partial && t.partial.scored < t.partial.of ? `${t.partial.scored} of ${t.partial.of} scored` : undefined}
          />
        ))}
      </div>
    ) : null;
  }
  return (
    <section aria-labelledby={id} data-rubric={r.key} className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-border bg-background p-4">
      <div className="max-w-2xl flex-1">
        <p className="text-xs font-semibold uppercase tracking-wider text-primary">Rubric</p>
        <h2 id={id} className="text-lg font-semibold tracking-tight">
          {r.name}
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          {instructionsOf(r, n)} <span className="whitespace-nowrap">Source: {SOURCE[r.key] ?? r.source ?? "the study's own rubric"}.</span>
        </p>
      </div>
      {totals}
    </section>
  );
}

function pointsOf(rubric: RubricDocument, state: FormState, repetition: number): number | null {
  const xs = rubric.dimensions.filter((d) => d.scope === "each_answer").map((d) => state.scores[cellKey(rubric.key, d.key, repetition)]);
  return xs.some((x) => typeof x !== "number") ? null : (xs as number[]).reduce((a, b) => a + b, 0);
}

/** SAFE-LLM's score of one answer, live: its points plus the derived consistency. */
function SafeLlmAnswerScore({ p, rubric, repetition }: { p: FormParts; rubric: RubricDocument; repetition: number }) {
  const t = answerScores(p.state, p.study, rubric.key);
  const max = p.totals.find((x) => x.rubric === rubric.key && x.key === "per_answer")?.max ?? 7;
  const total = t.answers[repetition - 1] ?? null;
  const pts = pointsOf(rubric, p.state, repetition);
  return (
    <p className="text-xs text-muted-foreground tabular-nums" data-testid={`safe-llm-answer-${repetition}`}>
      Answer {repetition} score: <span className="font-semibold text-foreground">{total === null ? "—" : formatScore(total)}</span> / {max}
      {total === null && pts !== null ? <span> ({pts} points, consistency pending)</span> : null}
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
              {isSafeLlm(r) ? <SafeLlmAnswerScore p={p} rubric={r} repetition={p.repetition} /> : null}
            </div>
            <div className={PANEL}>{fields.map((f) => (f.criterion ? <CriterionField key={f.key} f={f} p={p} /> : <Field key={f.key} f={f} p={p} scopeLabel={label} />))}</div>
          </div>
        );
      })}
    </div>
  );
}

/** Whether anything is graded or shown for the whole set (after the answers). */
export const hasSetPart = (p: Pick<FormParts, "fields" | "study">) => p.fields.some((f) => answerOfField(f) === 0) || p.study.rubrics.some(isSafeLlm);

/** What is graded across the answers, once, after them: the answers are read just above (or in the tabs before this one). */
export function SetFields(p: FormParts) {
  const n = p.answers.length;
  return (
    <div className="flex flex-col gap-4">
      {p.study.rubrics.map((r) => {
        const fields = p.fields.filter((f) => f.rubric === r.key && answerOfField(f) === 0);
        if (isSafeLlm(r)) return <SafeLlmSummary key={r.key} p={p} rubric={r} />;
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

/** SAFE-LLM across the answers: the derived consistency and each answer's score. */
function SafeLlmSummary({ p, rubric }: { p: FormParts; rubric: RubricDocument }) {
  const perAnswer = p.totals.find((t) => t.rubric === rubric.key && t.key === "per_answer");
  const derived = rubric.dimensions.find((d) => d.derived);
  const t = { ...answerScores(p.state, p.study, rubric.key), mean: perAnswer?.value ?? null, max: perAnswer?.max ?? 7 };
  const accuracy = p.answers.map((a) => p.state.scores[cellKey(rubric.key, derived?.derived?.of ?? "accuracy", a.repetition)]);
  return (
    <div className="flex flex-col gap-2" data-rubric-fields={rubric.key}>
      <h4 className="text-sm font-semibold">{rubric.name}</h4>
      <div className="grid gap-4 md:grid-cols-2">
        <div className="rounded-lg border border-border bg-muted/40 p-4" data-testid="consistency">
          <p className="flex items-baseline justify-between gap-2">
            <span className="text-[0.9375rem] font-semibold">Consistency</span>
            <span className="text-xs text-muted-foreground">derived, 0–1</span>
          </p>
          <p className="mt-1 text-sm text-muted-foreground">{derived?.definition}</p>
          <p className="mt-3 text-sm" aria-live="polite" aria-atomic="true">
            {t.consistency === null ? (
              <span className="text-muted-foreground">Shown once every answer has an accuracy score.</span>
            ) : (
              <>
                <span className="mr-2 inline-flex size-7 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground tabular-nums">
                  {t.consistency}
                </span>
                {t.consistency === 1 ? "Your accuracy scores are equal across the answers" : "Your accuracy scores differ between the answers"} (
                {accuracy.map((v) => v ?? "–").join(", ")}).
              </>
            )}
          </p>
        </div>
        <div className="self-start overflow-hidden rounded-lg border border-border">
          <table className="w-full text-sm">
            <caption className="sr-only">SAFE-LLM score per answer</caption>
            <thead className="bg-muted/60 text-left text-xs text-muted-foreground">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Answer
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Points
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Consistency
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Score / {t.max}
                </th>
              </tr>
            </thead>
            <tbody className="tabular-nums">
              {p.answers.map((a, i) => {
                const pts = pointsOf(rubric, p.state, a.repetition);
                return (
                  <tr key={a.repetition} className="border-t border-border">
                    <th scope="row" className="px-3 py-1.5 text-left font-normal">
                      Answer {a.repetition}
                    </th>
                    <td className="px-3 py-1.5 text-right">{pts ?? "—"}</td>
                    <td className="px-3 py-1.5 text-right">{t.consistency ?? "—"}</td>
                    <td className="px-3 py-1.5 text-right font-medium">{t.answers[i] === null ? "—" : formatScore(t.answers[i]!)}</td>
                  </tr>
                );
              })}
              <tr className="border-t border-border bg-muted/40">
                <th scope="row" className="px-3 py-1.5 text-left font-semibold">
                  Mean
                </th>
                <td colSpan={2} />
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
