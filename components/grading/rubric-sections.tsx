"use client";

import { RUBRICS } from "@/lib/rubrics/definitions";
import { cellKey, formatScore, type CellKey, type FormState, type GradingField, type LiveTotals, type PlacedProblems } from "@/lib/grading/form-state";
import { cn } from "@/lib/utils";
import { AnswerCard } from "./answer-card";
import { DimensionField } from "./dimension-field";

/** An answer labelled by its repetition only, its Markdown rendered on the server. */
export interface RenderedAnswer {
  repetition: number;
  body: React.ReactNode;
}

export interface SectionProps {
  fields: GradingField[];
  state: FormState;
  problems: PlacedProblems;
  readOnly: boolean;
  answers: RenderedAnswer[];
  totals: LiveTotals;
  onScore: (key: CellKey, value: number) => void;
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
  const t = p.totals.score!;
  return (
    <section aria-labelledby="rubric-score" className="flex flex-col gap-6">
      <RubricHeader
        id="rubric-score"
        title={RUBRICS.SCORE.name}
        source="S.C.O.R.E. framework, Table 2"
        total={<TotalBox testId="score-total" label="S.C.O.R.E. total" value={String(t.total)} max={t.max} note={t.scored < t.of ? `${t.scored} of ${t.of} dimensions scored` : "all dimensions scored"} />}
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
          <div className={cn("grid gap-3", SIDE_BY_SIDE[n] ?? "md:grid-cols-3")}>
            {p.answers.map((a) => (
              <AnswerCard key={a.repetition} repetition={a.repetition} className="max-h-[28rem]">
                {a.body}
              </AnswerCard>
            ))}
          </div>
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

const POINT_DIMS = ["accuracy", "comprehensiveness", "supplementation", "fluency"] as const;

function pointsOf(state: FormState, repetition: number): number | null {
  const xs = POINT_DIMS.map((d) => state.scores[cellKey("SAFE_LLM", d, repetition)]);
  return xs.some((x) => x === undefined) ? null : (xs as number[]).reduce((a, b) => a + b, 0);
}

export function SafeLlmSection(p: SectionProps) {
  const n = p.answers.length;
  const t = p.totals.safeLlm!;
  const accuracy = p.answers.map((a) => p.state.scores[cellKey("SAFE_LLM", "accuracy", a.repetition)]);
  return (
    <section aria-labelledby="rubric-safe-llm" className="flex flex-col gap-6">
      <RubricHeader
        id="rubric-safe-llm"
        title={RUBRICS.SAFE_LLM.name}
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
        const pts = pointsOf(p.state, a.repetition);
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
          <p className="mt-1 text-sm text-muted-foreground">{RUBRICS.SAFE_LLM.dimensions.find((d) => d.key === "consistency")!.definition}</p>
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
                const pts = pointsOf(p.state, a.repetition);
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
