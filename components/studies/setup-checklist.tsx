import Link from "next/link";
import { Check, Circle } from "lucide-react";
import { allAnswers } from "@/components/studies/labels";
import type { StudyDetail } from "@/lib/studies/service";

interface Step {
  key: string;
  label: string;
  done: boolean;
  /** What is there, or what is missing. */
  detail: string;
  action?: { href: string; label: string };
}

const n = (x: number, one: string, many = `${one}s`) => `${x.toLocaleString("en")} ${x === 1 ? one : many}`;

/** The set-up of a study in the order it must happen, each step with what is missing and where to do it. */
export function setupSteps(d: StudyDetail): Step[] {
  const base = `/studies/${d.id}`;
  const c = d.counts;
  const incomplete = c.responseSets - c.completeResponseSets;
  const open = d.status !== "DRAFT";
  return [
    {
      key: "import",
      label: "Import questions and answers",
      done: c.completeResponseSets > 0,
      detail:
        c.responseSets === 0
          ? "No questions yet."
          : `${n(c.items, "question")}, ${n(c.completeResponseSets, "complete answer set")}${incomplete ? `; ${n(incomplete, "set")} still without ${allAnswers(d.repetitions)}` : ""}.`,
      action: { href: `${base}/import`, label: c.responseSets === 0 ? "Import a file" : "Import more" },
    },
    {
      key: "rubric",
      label: "Check the rubric and thresholds",
      done: true,
      detail: `${d.rubricDocuments.map((r) => r.name).join(" + ")}, N = ${d.repetitions}, k = ${d.gradersPerSet}${d.gradingStarted ? " (locked: grading has started)" : ""}.`,
      action: d.gradingStarted ? undefined : { href: `${base}/settings`, label: "Review the settings" },
    },
    {
      key: "graders",
      label: "Add graders",
      done: c.activeGraders >= d.gradersPerSet,
      detail:
        c.activeGraders >= d.gradersPerSet
          ? `${n(c.activeGraders, "grader")}; each set needs ${d.gradersPerSet}, and a third to adjudicate helps.`
          : `${n(c.activeGraders, "grader")}: each set needs ${d.gradersPerSet} different graders.`,
      action: { href: `${base}/graders`, label: "Add graders" },
    },
    {
      key: "open",
      label: "Open the study",
      done: open,
      detail: open ? (d.status === "CLOSED" ? "Opened, now closed." : "Open.") : "Still a draft: graders see nothing until it is open (the button under Status).",
    },
    {
      key: "assign",
      label: "Assign the sets to graders",
      done: c.assignments > 0,
      detail:
        c.assignments > 0
          ? `${n(c.assignments, "assignment")}, ${c.submittedAssignments.toLocaleString("en")} submitted.`
          : open
            ? "Nobody has work yet."
            : "Possible once the study is open.",
      action: open && d.status !== "CLOSED" ? { href: `${base}/assignments`, label: c.assignments > 0 ? "Assign new sets" : "Assign graders" } : undefined,
    },
  ];
}

export function SetupChecklist({ detail }: { detail: StudyDetail }) {
  const steps = setupSteps(detail);
  const next = steps.find((s) => !s.done);
  return (
    <ol className="flex flex-col gap-3" aria-label="Setting up the study">
      {steps.map((s, i) => (
        <li key={s.key} className="flex items-start gap-3" data-step={s.key} data-done={s.done}>
          {s.done ? (
            <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600" />
          ) : (
            <Circle aria-hidden className={`mt-0.5 size-4 shrink-0 ${s === next ? "text-primary" : "text-muted-foreground"}`} />
          )}
          <div className="flex flex-1 flex-col gap-0.5">
            <span className={s === next ? "font-medium" : undefined}>
              {i + 1}. {s.label}
              <span className="sr-only">{s.done ? " (done)" : " (to do)"}</span>
            </span>
            <span className="text-xs text-muted-foreground">{s.detail}</span>
          </div>
          {s.action ? (
            <Link href={s.action.href} className="shrink-0 text-sm text-primary underline-offset-4 hover:underline">
              {s.action.label}
            </Link>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
