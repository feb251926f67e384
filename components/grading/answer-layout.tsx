"use client";

import { Check } from "lucide-react";
import { useRef } from "react";
import { cn } from "@/lib/utils";
import { AnswerCard } from "./answer-card";
import { AnswerFields, answerOfField, hasSetPart, SetFields, type FormParts } from "./rubric-sections";

/**
 * The answers, each once and in full, with the fields graded on it beside it
 * (below it on a narrow screen), then what is graded across them. On a phone
 * one part shows at a time behind tabs ("Answer 1", "Answer 2"…, "All
 * together"; arrow keys, Home and End move between them as WAI-ARIA's tabs
 * pattern says); from the lg breakpoint every part is shown and the tabs are
 * hidden. The hidden parts stay in the page, so drafts and "Next missing"
 * see every field.
 */

/** A part of the page: an answer's repetition, or 0 for the whole set. */
export type AnswerPart = number;

export function partsOf(p: Pick<FormParts, "answers" | "fields" | "study">): AnswerPart[] {
  return [...p.answers.map((a) => a.repetition), ...(hasSetPart(p) ? [0] : [])];
}

const tabId = (part: AnswerPart) => `answer-tab-${part}`;
const panelId = (part: AnswerPart) => `answer-panel-${part}`;
const partLabel = (part: AnswerPart, n: number) => (part === 0 ? `All ${n} together` : `Answer ${part}`);

export function AnswerLayout(p: FormParts & { active: AnswerPart; onActive: (part: AnswerPart) => void }) {
  const parts = partsOf(p);
  const active = parts.includes(p.active) ? p.active : parts[0];
  const n = p.answers.length;
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const listRef = useRef<HTMLDivElement>(null);
  const scoredIn = (part: AnswerPart) => {
    const fs = p.fields.filter((f) => answerOfField(f) === part);
    return { done: fs.filter((f) => p.state.scores[f.key] !== undefined).length, of: fs.length };
  };
  const move = (i: number) => {
    const j = (i + parts.length) % parts.length;
    p.onActive(parts[j]);
    tabs.current[j]?.focus();
  };
  return (
    <div className="flex flex-col gap-6">
      <div role="tablist" aria-label="Answers" ref={listRef} className="-mx-1 flex gap-1 overflow-x-auto rounded-lg border border-border bg-background p-1 shadow-sm lg:hidden">
        {parts.map((part, i) => {
          const s = scoredIn(part);
          const selected = part === active;
          return (
            <button
              key={part}
              ref={(el) => {
                tabs.current[i] = el;
              }}
              type="button"
              role="tab"
              id={tabId(part)}
              aria-controls={panelId(part)}
              aria-selected={selected}
              tabIndex={selected ? 0 : -1}
              onClick={() => p.onActive(part)}
              onKeyDown={(e) => {
                const to = e.key === "ArrowRight" ? i + 1 : e.key === "ArrowLeft" ? i - 1 : e.key === "Home" ? 0 : e.key === "End" ? parts.length - 1 : null;
                if (to === null) return;
                e.preventDefault();
                move(to);
              }}
              className={cn(
                "flex shrink-0 items-center gap-1 rounded-md px-2.5 py-1.5 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-ring",
                selected ? "bg-primary text-primary-foreground" : "text-muted-foreground hover:bg-muted",
              )}
            >
              {partLabel(part, n)}
              {s.of > 0 ? (
                s.done === s.of ? (
                  <Check aria-label="all scored" className="size-3.5" />
                ) : (
                  <span className="text-xs tabular-nums opacity-80">
                    {s.done}/{s.of}
                  </span>
                )
              ) : null}
            </button>
          );
        })}
      </div>

      {parts.map((part) => {
        const answer = p.answers.find((a) => a.repetition === part);
        return (
          <section
            key={part}
            id={panelId(part)}
            role="tabpanel"
            aria-labelledby={tabId(part)}
            data-answer-part={part}
            className={cn(part === active ? "grid" : "hidden", "items-start gap-4 lg:grid", answer ? "lg:grid-cols-[minmax(0,1fr)_minmax(0,1.25fr)] xl:grid-cols-[minmax(0,1fr)_minmax(0,1.6fr)]" : "")}
          >
            {answer ? (
              <>
                <AnswerCard repetition={answer.repetition} headingLevel="h3" caption={`of ${n}`}>
                  {answer.body}
                </AnswerCard>
                <AnswerFields {...p} repetition={part} />
              </>
            ) : (
              <div className="flex flex-col gap-2 rounded-lg border border-dashed border-border p-4">
                <h3 className="text-base font-semibold">All {n} answers together</h3>
                <p className="text-sm text-muted-foreground">
                  The same question was asked {n} times: compare the answers above (or in the tabs before this one). Stylistic variation is acceptable, contradictory
                  clinical content is not.
                </p>
                <SetFields {...p} />
              </div>
            )}
            {/* A phone's stepper: on to the next part without scrolling back to the tabs. */}
            {part !== parts[parts.length - 1] ? (
              <button
                type="button"
                className="justify-self-end rounded-md border border-border px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-ring lg:hidden"
                onClick={() => {
                  const next = parts[parts.indexOf(part) + 1];
                  p.onActive(next);
                  listRef.current?.scrollIntoView({ block: "start" });
                  tabs.current[parts.indexOf(next)]?.focus({ preventScroll: true });
                }}
              >
                Next: {partLabel(parts[parts.indexOf(part) + 1], n)} →
              </button>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}
