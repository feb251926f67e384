import { ProgressBar } from "@/components/grading/progress-bar";
import type { Metadata } from "next";
import { AssignPanel } from "@/components/assignment/assign-panel";
import { ComparisonPanel } from "@/components/assignment/comparison-panel";
import { getDb } from "@/lib/db/client";
import { comparisonPlanSummary } from "@/lib/pairwise/plan-service";
import { LeftWorkNotice } from "@/components/assignment/left-work-notice";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { DESIGN_LABEL } from "@/lib/studies/assignment-design";
import { assignmentProgress } from "@/lib/assignment/service";
import { loadStudyForPage } from "@/lib/studies/page-access";

export const metadata: Metadata = { title: "Assignments" };

export default async function AssignmentsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { study } = await loadStudyForPage(id);
  const progress = await assignmentProgress(study.id);
  return (
    <div className="flex flex-col gap-6">
      <LeftWorkNotice graders={progress.graders} studyId={study.id} />
      {study.design === "PAIRWISE" ? (
        <ComparisonPanel
          studyId={study.id}
          open={study.status === "OPEN"}
          models={(await getDb().llmModel.findMany({ where: { studyId: study.id }, select: { name: true }, orderBy: { name: "asc" } })).map((m) => m.name)}
          plan={await comparisonPlanSummary(getDb(), study.id)}
        />
      ) : (
      <AssignPanel
        studyId={study.id}
        open={study.status === "OPEN"}
        matchSpecialty={study.matchSpecialty}
        seed={progress.seed}
        design={progress.design}
        assigned={progress.totals.assigned > 0}
      />
      )}
      <div className="flex flex-col gap-2">
        <h2 className="font-semibold">Progress per grader</h2>
        <p className="text-sm text-muted-foreground" data-testid="assignment-seed">
          {progress.seed ? (
            <>
              Last assignment seed: <code className="font-mono">{progress.seed}</code> (the same seed on the same data gives the same assignment).
            </>
          ) : (
            "No assignment yet."
          )}{" "}
          Design: <span data-testid="assignment-design">{DESIGN_LABEL[progress.design]}</span>.{" "}
          {progress.totals.submitted} of {progress.totals.assigned} assignments submitted.
        </p>
        <Table aria-label="Grader progress">
          <TableHeader>
            <TableRow>
              <TableHead>Grader</TableHead>
              <TableHead className="text-right">Done / assigned</TableHead>
              <TableHead className="text-right">Drafts</TableHead>
              <TableHead className="text-right">Third-grader sets</TableHead>
              <TableHead>Progress</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {progress.graders.map((g) => (
              <TableRow key={g.graderId}>
                <TableCell>
                  {g.name} <span className="text-xs text-muted-foreground">{g.email}</span> {!g.active ? <Badge variant="outline">inactive</Badge> : null}
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {g.submitted} / {g.assigned}
                </TableCell>
                <TableCell className="text-right tabular-nums">{g.inProgress}</TableCell>
                <TableCell className="text-right tabular-nums">{g.adjudications}</TableCell>
                <TableCell>
                  <span className="flex items-center gap-2">
                    <ProgressBar value={g.submitted} max={g.assigned} label={`${g.name}: submitted`} className="w-40 border border-border" />
                    <span className="w-10 text-right text-xs tabular-nums text-muted-foreground">{g.assigned ? Math.round((100 * g.submitted) / g.assigned) : 0}%</span>
                  </span>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
