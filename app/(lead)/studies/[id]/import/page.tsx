import type { Metadata } from "next";
import Link from "next/link";
import { ImportPanel } from "@/components/import/import-panel";
import { RedactionForm } from "@/components/import/redaction-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { formatBytes, maxImportBytes } from "@/lib/import/source";
import { loadStudyForPage } from "@/lib/studies/page-access";

export const metadata: Metadata = { title: "Import questions and answers" };

const COLUMNS: [string, string][] = [
  ["item_id", "Your id for the question, unique in the study (e.g. oph-001)."],
  ["specialty", "Clinical specialty; names match whatever their case, and the first spelling is kept."],
  ["question", "The clinical question, as graders will read it."],
  ["reference_answer", "The expert reference answer (may be empty)."],
  [
    "criteria",
    'Optional: the question\'s own criteria for a HealthBench-style rubric, as JSON: [{"id": "c1", "text": "Advises urgent care", "points": 5}]. Required when the study grades criteria.',
  ],
  [
    "preview",
    "Optional: the part of the question the graders' queue shows (one line), when questions open alike (the same context, then the question). Blank: the question's last paragraph.",
  ],
  ["model", "Name of the LLM that answered. Graders never see it."],
  ["repetition", "Which of the N answers generated for this question and model: 1 to N."],
  ["response", "The model's answer. Line breaks are kept; quote the cell (Excel does)."],
  ["model_version, temperature, top_p", "Optional generation settings, recorded once per model."],
];

/**
 * Import of a study's questions and generated answers: the file is checked
 * in full first (nothing written) and every problem listed; only then can
 * the lead import it. The guard (lead of this study, or admin; 404 otherwise)
 * is loadStudyForPage: requireUser(LEAD_ROLES), then requireStudyForLead.
 */
export default async function StudyImportPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { study } = await loadStudyForPage(id);
  const base = `/studies/${study.id}`;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1">
        <p className="text-sm">
          <Link href={base} className="text-muted-foreground hover:text-foreground">
            ← Back to the study
          </Link>
        </p>
        <h2 className="text-lg font-semibold">Import questions and answers</h2>
        <p className="text-sm text-muted-foreground">
          One row per generated answer. This study expects N = {study.repetitions} answers per question and model; a question and model with fewer is
          kept but not offered for grading until its answers are complete.
        </p>
      </div>

      {study.status === "CLOSED" ? (
        <p role="status" className="rounded-md border border-border bg-muted/40 p-4 text-sm">
          This study is closed: nothing more can be imported into it.
        </p>
      ) : (
        <>
          <ImportPanel studyId={study.id} studyHref={base} repetitions={study.repetitions} maxBytes={maxImportBytes()} />
          <RedactionForm studyId={study.id} />
        </>
      )}

      <Card>
        <CardHeader>
          <CardTitle className="text-base">The file</CardTitle>
          <CardDescription>
            CSV (UTF-8, comma or semicolon separated, as Excel saves &quot;CSV UTF-8&quot;) or a JSON array of rows with the same keys, up to{" "}
            {formatBytes(maxImportBytes())}. The header row names the columns, in any order.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4 text-sm">
          <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[14rem_1fr]">
            {COLUMNS.map(([name, text]) => (
              <div key={name} className="contents">
                <dt className="font-mono text-xs leading-5">{name}</dt>
                <dd className="text-muted-foreground">{text}</dd>
              </div>
            ))}
          </dl>
          <p className="text-muted-foreground">
            The same file can also be split in two: first the questions alone (item_id, specialty, question, reference_answer), then the answers alone
            (item_id, model, repetition, response). Importing a file again changes nothing that is the same; an answer that already has grades can never be
            changed.
          </p>
          <p>
            <a href="/examples/import-example.csv" download className="text-primary underline-offset-4 hover:underline">
              Download an example CSV
            </a>{" "}
            <span className="text-muted-foreground">(2 questions × 2 models × 3 answers, one of them over several lines)</span>
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
