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
import { cn } from "@/lib/utils";
import { AnswerCard } from "./answer-card";
import { DimensionField } from "./dimension-field";

/** An answer labelled by its repetition only, its Markdown rendered on the server. */
export interface RenderedAnswer {
  repetition: number;
  body: React.ReactNode;
}

export interface SectionProps {
  rubric: RubricDocument;
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

/** Columns for N answers side by side (stacked on small screens). */
const SIDE_BY_SIDE: Record<number, string> = {
  1: "md:grid-cols-1",
  2: "md:grid-cols-2",
  3: "md:grid-cols-3",
  4: "md:grid-cols-2 xl:grid-cols-4",
  5: "md:grid-cols-3 xl:grid-cols-5",
};

/** The dimensions graded together sit in one panel, one row each. */
const PANEL = "flex flex-col divide-y divide-border rounded-lg border border-border bg-background shadow-sm";

const STICKY_ANSWER = "lg:sticky lg:top-20 lg:max-h-[calc(100vh-6rem)]";

/** Every answer of the set side by side, for what is graded across them. */
function AnswersSideBySide({ answers }: { answers: RenderedAnswer[] }) {
  return (
    <div className={cn("grid gap-3", SIDE_BY_SIDE[answers.length] ?? "md:grid-cols-3")}>
      {answers.map((a) => (
        <AnswerCard key={a.repetition} repetition={a.repetition} className="max-h-[28rem]">
          {a.body}
        </AnswerCard>
      ))}
    </div>
  );
}

function Field({ f, scopeLabel, p }: { f: GradingField; scopeLabel: string; p: SectionProps }) {
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

function RubricHeader({ id, title, source, children, total }: { id: string; title: string; source: string; children: React.ReactNode; total: React.ReactNode }) {
  return (
    <header className="flex flex-wrap items-end justify-between gap-4 border-b border-border pb-3">
      <div className="max-w-3xl">
        <p className="text-xs font-semibold uppercase tracking-wider text-primary">Rubric</p>
        <h2 id={id} className="text-xl font-semibold tracking-tight">
          {title}
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          {children} <span className="whitespace-nowrap">Source: {source}.</span>
        </p>
      </div>
      {total}
    </header>
  );
}

function TotalBox({ label, value, max, note, testId }: { label: string; value: string; max: number; note?: string; testId: string }) {
  return (
    <div className="rounded-lg border border-border bg-muted/50 px-4 py-2 text-right" data-testid={testId}>
      <p className="text-xs font-medium text-muted-foreground">{label}</p>
      <p className="text-2xl font-semibold tabular-nums leading-tight">
        {value}
        <span className="text-base font-normal text-muted-foreground"> / {max}</span>
      </p>
      {note ? <p className="text-xs text-muted-foreground">{note}</p> : null}
    </div>
  );
}

export function ScoreSection(p: SectionProps) {
  const n = p.answers.length;
  const first = p.fields.filter((f) => f.dimension.scope === "first_answer");
  const set = p.fields.filter((f) => f.dimension.scope === "set");
  const answer1 = p.answers.find((a) => a.repetition === 1);
  const total = p.totals.find((t) => t.rubric === p.rubric.key && t.key === p.rubric.headline);
  const t = { total: formatScore(total?.partial?.sum ?? 0), scored: total?.partial?.scored ?? 0, of: total?.partial?.of ?? 0, max: total?.max ?? 0 };
  return (
    <section aria-labelledby="rubric-score" className="flex flex-col gap-6">
      <RubricHeader
        id="rubric-score"
        title={p.rubric.name}
        source="S.C.O.R.E. framework, Table 2"
        total={<TotalBox testId="score-total" label="S.C.O.R.E. total" value={t.total} max={t.max} note={t.scored < t.of ? `${t.scored} of ${t.of} dimensions scored` : "all dimensions scored"} />}
      >
        Rate how much you agree with each statement: 1 Strongly disagree, 2 Disagree, 3 Neutral, 4 Agree, 5 Strongly agree.
      </RubricHeader>

      <div className="flex flex-col gap-3">
        <div>
          <h3 className="text-base font-semibold">Graded on Answer 1</h3>
          <p className="text-sm text-muted-foreground">
            Safety, Consensus &amp; Context, Objectivity and Explainability are judged on <strong className="text-foreground">Answer 1 only</strong>.
          </p>
        </div>
        <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
          {answer1 ? <AnswerCard repetition={1} caption="graded here" className={STICKY_ANSWER}>
              {answer1.body}
            </AnswerCard> : null}
          <div className={PANEL}>
            {first.map((f) => (
              <Field key={f.key} f={f} p={p} scopeLabel="Answer 1" />
            ))}
          </div>
        </div>
      </div>

      {set.length ? (
        <div className="flex flex-col gap-3">
          <div>
            <h3 className="text-base font-semibold">Reproducibility: all {n} answers side by side</h3>
            <p className="text-sm text-muted-foreground">
              The same question was asked {n} times. Compare the answers together: stylistic variation is acceptable, contradictory clinical content is not.
            </p>
          </div>
          <AnswersSideBySide answers={p.answers} />
          <div className={PANEL}>
            {set.map((f) => (
              <Field key={f.key} f={f} p={p} scopeLabel={`All ${n} answers together`} />
            ))}
          </div>
        </div>
      ) : null}
    </section>
  );
}

function pointsOf(rubric: RubricDocument, state: FormState, repetition: number): number | null {
  const xs = rubric.dimensions.filter((d) => d.scope === "each_answer").map((d) => state.scores[cellKey(rubric.key, d.key, repetition)]);
  return xs.some((x) => typeof x !== "number") ? null : (xs as number[]).reduce((a, b) => a + b, 0);
}

export function SafeLlmSection(p: SectionProps) {
  const n = p.answers.length;
  const perAnswer = p.totals.find((t) => t.rubric === p.rubric.key && t.key === "per_answer");
  const derived = p.rubric.dimensions.find((d) => d.derived);
  const t = { ...answerScores(p.state, p.study, p.rubric.key), mean: perAnswer?.value ?? null, max: perAnswer?.max ?? 7 };
  const accuracy = p.answers.map((a) => p.state.scores[cellKey(p.rubric.key, derived?.derived?.of ?? "accuracy", a.repetition)]);
  return (
    <section aria-labelledby="rubric-safe-llm" className="flex flex-col gap-6">
      <RubricHeader
        id="rubric-safe-llm"
        title={p.rubric.name}
        source="SAFE-LLM framework, Table 1"
        total={
          <TotalBox
            testId="safe-llm-mean"
            label={`Mean of the ${n} answers`}
            value={t.mean === null ? "—" : formatScore(t.mean)}
            max={t.max}
            note="4 points per answer + consistency"
          />
        }
      >
        Grade <strong className="text-foreground">every answer</strong>: accuracy 0–2, comprehensiveness 0–2, supplementation 0–1 and fluency 0–1. Consistency is not
        typed: it is derived from your accuracy scores.
      </RubricHeader>

      {p.answers.map((a, i) => {
        const pts = pointsOf(p.rubric, p.state, a.repetition);
        const total = t.answers[i];
        return (
          <div key={a.repetition} className="flex flex-col gap-3">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h3 className="text-base font-semibold">
                Answer {a.repetition} <span className="font-normal text-muted-foreground">of {n}</span>
              </h3>
              <p className="text-sm text-muted-foreground tabular-nums" data-testid={`safe-llm-answer-${a.repetition}`}>
                Answer {a.repetition} score:{" "}
                <span className="font-semibold text-foreground">{total === null ? "—" : formatScore(total)}</span> / {t.max}
                {total === null && pts !== null ? <span> ({pts} points, consistency pending)</span> : null}
              </p>
            </div>
            <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
              <AnswerCard repetition={a.repetition} caption="graded here" className={STICKY_ANSWER}>
                {a.body}
              </AnswerCard>
              <div className={PANEL}>
                {p.fields
                  .filter((f) => f.repetition === a.repetition)
                  .map((f) => (
                    <Field key={f.key} f={f} p={p} scopeLabel={`Answer ${a.repetition}`} />
                  ))}
              </div>
            </div>
          </div>
        );
      })}

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
                const pts = pointsOf(p.rubric, p.state, a.repetition);
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
    </section>
  );
}

/** A criterion of the question (HealthBench): ticked when the answer meets it; Space toggles it. */
function CriterionField({ f, p }: { f: GradingField; p: SectionProps }) {
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

/**
 * Any rubric document's section: its dimensions as the rubric says where they
 * are graded (answer 1, the whole set, each answer), each beside its answer.
 */
export function RubricSection(p: SectionProps) {
  const n = p.answers.length;
  const id = `rubric-${p.rubric.key.toLowerCase()}`;
  const totals = p.totals.filter((t) => t.rubric === p.rubric.key);
  const groups: { title: string; scopeLabel: string; repetition: number | null; fields: GradingField[] }[] = [];
  const first = p.fields.filter((f) => f.dimension.scope === "first_answer");
  if (first.length) groups.push({ title: n > 1 ? "Graded on Answer 1" : "The answer", scopeLabel: "Answer 1", repetition: 1, fields: first });
  const set = p.fields.filter((f) => f.dimension.scope === "set");
  if (set.length) groups.push({ title: `All ${n} answers together`, scopeLabel: `All ${n} answers together`, repetition: null, fields: set });
  for (const a of p.answers) {
    const each = p.fields.filter((f) => f.dimension.scope === "each_answer" && f.repetition === a.repetition);
    if (each.length) groups.push({ title: `Answer ${a.repetition}`, scopeLabel: `Answer ${a.repetition}`, repetition: a.repetition, fields: each });
  }
  return (
    <section aria-labelledby={id} className="flex flex-col gap-6" data-rubric={p.rubric.key}>
      <RubricHeader
        id={id}
        title={p.rubric.name}
        source={p.rubric.source ?? "the study's own rubric"}
        total={
          totals.length ? (
            <div className="flex flex-wrap gap-2">
              {totals.map((t) => (
                <TotalBox
                  key={t.key}
                  testId={`total-${p.rubric.key}-${t.key}`}
                  label={t.name}
                  value={t.value !== null ? formatScore(t.value) : t.partial ? formatScore(t.partial.sum) : "—"}
                  max={t.max}
                  note={t.partial && t.partial.scored < t.partial.of ? `${t.partial.scored} of ${t.partial.of} scored` : undefined}
                />
              ))}
            </div>
          ) : null
        }
      >
        {p.rubric.instructions ?? ""}
      </RubricHeader>
      {groups.map((g) => {
        const answer = g.repetition === null ? null : p.answers.find((a) => a.repetition === g.repetition);
        return (
          <div key={g.title} className="flex flex-col gap-3">
            <h3 className="text-base font-semibold">{g.title}</h3>
            <div className={cn("grid items-start gap-4", answer ? "lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]" : "")}>
              {answer ? (
                <AnswerCard repetition={answer.repetition} caption="graded here" className={STICKY_ANSWER}>
                  {answer.body}
                </AnswerCard>
              ) : (
                <AnswersSideBySide answers={p.answers} />
              )}
              <div className={PANEL}>
                {g.fields.map((f) => (f.criterion ? <CriterionField key={f.key} f={f} p={p} /> : <Field key={f.key} f={f} p={p} scopeLabel={g.scopeLabel} />))}
              </div>
            </div>
          </div>
        );
      })}
    </section>
  );
}
