import Link from "next/link";

export interface QueueComparison {
  id: string;
  kind: "PRIMARY" | "ADJUDICATOR";
  status: "PENDING" | "IN_PROGRESS" | "SUBMITTED";
  studyName: string;
  question: string;
}

const STATUS = { PENDING: "To do", IN_PROGRESS: "Draft", SUBMITTED: "Submitted" } as const;

/** The grader's pairwise comparisons, in their own order: a link each, no model named. */
export function ComparisonQueue({ comparisons }: { comparisons: QueueComparison[] }) {
  if (comparisons.length === 0) return null;
  const done = comparisons.filter((c) => c.status === "SUBMITTED").length;
  return (
    <section aria-labelledby="comparisons-heading" className="rounded-xl border border-border bg-background p-5 shadow-sm" data-testid="comparison-queue">
      <h2 id="comparisons-heading" className="text-lg font-semibold">
        Comparisons
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        <span className="tabular-nums">
          {done} / {comparisons.length}
        </span>{" "}
        submitted. Each shows two answers to one question, A and B: say which is better on each axis.
      </p>
      <ol className="mt-3 flex flex-col divide-y divide-border">
        {comparisons.map((c, i) => (
          <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
            <Link href={`/grade/comparisons/${c.id}`} className="min-w-0 flex-1 truncate underline-offset-2 hover:underline">
              <span className="tabular-nums text-muted-foreground">{i + 1}. </span>
              {c.question}
            </Link>
            <span className="text-xs text-muted-foreground">
              {c.studyName} · {c.kind === "ADJUDICATOR" ? "Third grader · " : ""}
              {STATUS[c.status]}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
