import type { Metadata } from "next";
import Link from "next/link";
import { GradeImportPanel } from "@/components/grade-import/grade-import-panel";
import { importableDimensions } from "@/lib/grade-import/rows";
import { listMappings } from "@/lib/grade-import/saved";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { loadStudyForPage } from "@/lib/studies/page-access";

export const metadata: Metadata = { title: "Import grades" };

/**
 * Import of grades made outside Clingrade (lib/grade-import). The guard (lead
 * of this study, or admin; 404 otherwise) is loadStudyForPage.
 */
export default async function GradeImportPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { study } = await loadStudyForPage(id);
  const base = `/studies/${study.id}`;
  const dimensions = importableDimensions(storedRubrics(study.rubrics)).map((d) => ({ value: `${d.rubric}/${d.key}`, label: d.name }));
  const saved = await listMappings(study.id);
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1">
        <p className="text-sm">
          <Link href={base} className="text-muted-foreground hover:text-foreground">
            ← Back to the study
          </Link>
        </p>
        <h2 className="text-lg font-semibold">Import grades</h2>
        <p className="text-sm text-muted-foreground">
          Grades collected in a spreadsheet or on paper join the study&apos;s own: the dashboard, results and exports read them like any grade. Imported
          grades are final as imported: they open no escalation.
        </p>
      </div>
      {study.status === "CLOSED" ? (
        <p role="status" className="rounded-md border border-border bg-muted/40 p-4 text-sm">
          This study is closed: grades can no longer be imported into it.
        </p>
      ) : (
        <GradeImportPanel studyId={study.id} dimensions={dimensions} saved={saved} />
      )}
    </div>
  );
}
