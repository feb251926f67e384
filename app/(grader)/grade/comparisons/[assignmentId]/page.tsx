import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Markdown } from "@/components/grading/markdown";
import { QuestionBody } from "@/components/grading/question-body";
import { ComparisonForm } from "@/components/pairwise/comparison-form";
import { ScreenWarning } from "@/components/screening/screen-warning";
import { ApiError } from "@/lib/errors/api-error";
import { getComparisonForGrader } from "@/lib/pairwise/grading";
import { GRADER_ROLES, requireUser } from "@/lib/server/page-guard";

export const metadata: Metadata = { title: "Compare two answers" };

/**
 * A grader's comparison: the question, answers A and B side by side (stacked on a phone), and
 * per axis A / tie / B. Only the grader's own comparison, blinded as the API gives it; anything
 * else is "not found".
 */
export default async function ComparisonPage({ params }: { params: Promise<{ assignmentId: string }> }) {
  const user = await requireUser(GRADER_ROLES);
  const c = await getComparisonForGrader(user.id, (await params).assignmentId).catch((e: unknown) => {
    if (e instanceof ApiError && e.status === 404) notFound();
    throw e;
  });
  const axes = c.study.rubricDocuments.flatMap((doc) =>
    doc.dimensions
      .filter((d) => d.scale.kind === "preference")
      .map((d) => ({ rubric: doc.key, key: d.key, name: d.name, definition: d.definition, allowTie: d.scale.allowTie !== false, strength: Boolean(d.scale.strength) })),
  );
  const answer = (a: { text: string; screened: boolean }) => (
    <>
      {a.screened ? <ScreenWarning /> : null}
      <Markdown>{a.text}</Markdown>
    </>
  );
  return (
    <section className="flex flex-col gap-6">
      <div>
        <p className="text-sm text-muted-foreground">
          {c.study.name} · Comparison {c.progress.position} of {c.progress.total} · {c.item.specialty}
          {c.kind === "ADJUDICATOR" ? " · Third grader" : ""}
        </p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">Which answer is better?</h1>
      </div>
      <div className="rounded-xl border border-border bg-background p-4 shadow-sm">
        <h2 className="mb-2 text-base font-semibold">Question</h2>
        <QuestionBody question={c.item.question} />
        {c.item.referenceAnswer ? (
          <details className="mt-3 text-sm">
            <summary>Reference answer</summary>
            <Markdown>{c.item.referenceAnswer}</Markdown>
          </details>
        ) : null}
      </div>
      <ComparisonForm key={c.id} id={c.id} readOnly={c.readOnly} axes={axes} initial={c.preferences} harm={c.harm} answers={{ a: answer(c.answers.a), b: answer(c.answers.b) }} />
    </section>
  );
}
