import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { QualitySetForm, type ExpectedDimension } from "@/components/grader-quality/quality-set-form";
import { isUuid } from "@/lib/db/uuid";
import { pilotStudies } from "@/lib/planner/service";
import { qualitySetDetail } from "@/lib/quality-tasks/sets";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { loadStudyForPage } from "@/lib/studies/page-access";

export const metadata: Metadata = { title: "Mark a quality set" };

/**
 * One set's question and answers beside the form that marks it as a calibration or gold set (leads
 * of the study and admins). The form's dimensions come from the study's rubric documents: every
 * ordinal dimension graders type.
 */
export default async function QualitySetPage({ params }: { params: Promise<{ id: string; setId: string }> }) {
  const { id, setId } = await params;
  const { study, user } = await loadStudyForPage(id);
  if (!isUuid(setId)) notFound();
  const set = await qualitySetDetail(study.id, setId);
  if (!set) notFound();
  const dims: ExpectedDimension[] = storedRubrics(study.rubrics).flatMap((r) =>
    r.dimensions
      .filter((d) => d.scale.kind === "ordinal" && !d.derived)
      .map((d) => ({ rubric: r.key, rubricName: r.name, key: d.key, name: d.name, scope: d.scope, levels: (d.scale.levels ?? []).map((l) => ({ value: Number(l.value), label: l.label })) })),
  );
  const pilots = (await pilotStudies(user)).filter((p) => p.id !== study.id);
  return (
    <div className="flex flex-col gap-6">
      <p className="text-sm">
        <Link href={`/studies/${study.id}/quality/sets`} className="text-muted-foreground underline hover:text-foreground">
          ← Calibration and gold sets
        </Link>
      </p>
      <section aria-labelledby="set-heading" className="flex flex-col gap-3">
        <h2 id="set-heading" className="text-lg font-semibold">
          Question <span className="font-mono">{set.externalId}</span>, {set.model}
        </h2>
        <p className="whitespace-pre-wrap text-sm">{set.question}</p>
        <ol className="flex flex-col gap-2">
          {set.answers.map((a) => (
            <li key={a.repetition} className="rounded-md border p-3 text-sm">
              <p className="font-medium">Answer {a.repetition}</p>
              <p className="whitespace-pre-wrap">{a.text}</p>
            </li>
          ))}
        </ol>
      </section>
      {set.assigned && !set.purpose ? (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          This set is already assigned as real work: its grades count in results, so it cannot be a calibration or gold set.
        </p>
      ) : null}
      {dims.length ? (
        <QualitySetForm
          studyId={study.id}
          setId={set.id}
          dims={dims}
          repetitions={study.repetitions}
          initial={set.purpose ? { purpose: set.purpose, expected: set.expected, tolerance: set.tolerance ?? 0, rationale: set.rationale } : null}
          pilots={pilots}
        />
      ) : (
        <p className="text-sm text-muted-foreground">The study&apos;s rubrics have no ordinal dimension: there is no score to expect.</p>
      )}
    </div>
  );
}
