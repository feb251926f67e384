import type { Metadata } from "next";
import { ArchiveImportForm } from "@/components/exports/archive-import-form";
import { ExportPanel } from "@/components/exports/export-panel";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { loadStudyForPage } from "@/lib/studies/page-access";

export const metadata: Metadata = { title: "Exports" };

export default async function StudyExportsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { user, study } = await loadStudyForPage(id);
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1">
        <h2 className="text-lg font-semibold">Exports</h2>
        <p className="text-sm text-muted-foreground">
          Grades and results of this study, unblinded, as CSV or JSON. Files are streamed from the database as they download, so even very large studies
          export at once.
        </p>
      </div>
      <ExportPanel studyId={study.id} slug={study.slug} today={new Date().toISOString().slice(0, 10)} />
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Import a study archive</CardTitle>
          <CardDescription>
            A whole-study archive (the JSON above, from this or another Clingrade instance) becomes a new study that you lead, with all its grades. Each
            grader becomes a new, deactivated, pseudonymous account that cannot sign in: names and emails in the archive are never matched to existing
            accounts.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ArchiveImportForm canMap={user.role === "ADMIN"} />
        </CardContent>
      </Card>
    </div>
  );
}
