import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { allAnswers, formatDate, PROMPT_SCORING_LABEL } from "@/components/studies/labels";
import { SetupChecklist } from "@/components/studies/setup-checklist";
import { StudyStatusActions } from "@/components/studies/study-status-actions";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DESIGN_LABEL } from "@/lib/studies/assignment-design";
import { loadStudyForPage } from "@/lib/studies/page-access";
import { studyDetail } from "@/lib/studies/service";
import { openHarmFlagCounts } from "@/lib/harm/service";
import { JudgeImportForm } from "@/components/judges/judge-import-form";
import { JudgeRunsPanel } from "@/components/judges/judge-runs-panel";
import { listEndpoints } from "@/lib/judges/runner/endpoints";
import { studyJudgesWithLatestRun } from "@/lib/judges/runner/runs";
import { EmbeddingRunPanel } from "@/components/embeddings/embedding-run-panel";
import { embeddingCoverage, embeddingRuns } from "@/lib/embeddings/runs";

export const metadata: Metadata = { title: "Study overview" };

function Stat({ label, value, detail }: { label: string; value: React.ReactNode; detail?: string }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-xl font-semibold tabular-nums">{value}</dd>
      {detail ? <dd className="text-xs text-muted-foreground">{detail}</dd> : null}
    </div>
  );
}

function Setting({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[12rem_1fr] gap-2 py-1.5 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export default async function StudyOverviewPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { study } = await loadStudyForPage(id);
  const [detail, openFlags, judges, endpoints, embedRuns, coverage] = await Promise.all([
    studyDetail(study.id),
    openHarmFlagCounts([study.id]),
    studyJudgesWithLatestRun(study.id),
    listEndpoints(),
    embeddingRuns(study.id),
    embeddingCoverage(study.id),
  ]);
  const embeddingEndpoints = endpoints.flatMap((e) => (e.embeddingModel ? [{ id: e.id, name: e.name, embeddingModel: e.embeddingModel }] : []));
  const openHarmFlags = openFlags.get(study.id) ?? 0;
  if (!detail) notFound();
  const { counts } = detail;
  const base = `/studies/${detail.id}`;

  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_18rem]">
      <div className="flex flex-col gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Setting up</CardTitle>
            <CardDescription>In this order; the next step is in bold.</CardDescription>
          </CardHeader>
          <CardContent>
            <SetupChecklist detail={detail} />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Progress</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
              <Stat label="Questions" value={counts.items} />
              <Stat label="Models" value={counts.models} />
              <Stat label="Complete answer sets" value={`${counts.completeResponseSets} / ${counts.responseSets}`} detail={`sets with ${allAnswers(detail.repetitions, "their")}`} />
              <Stat label="Graders" value={counts.activeGraders} detail={counts.graders > counts.activeGraders ? `${counts.graders - counts.activeGraders} removed` : undefined} />
              <Stat label="Assignments submitted" value={`${counts.submittedAssignments} / ${counts.assignments}`} />
              <Stat
                label="Harm flags to review"
                value={
                  <Link href={`${base}/harm?review=OPEN`} className={openHarmFlags > 0 ? "text-warning underline-offset-4 hover:underline" : "underline-offset-4 hover:underline"}>
                    {openHarmFlags}
                  </Link>
                }
                detail="flags graders raised that no one has reviewed"
              />
            </dl>
            <p className="mt-4 flex flex-wrap gap-4 text-sm">
              <Link href={`${base}/items`} className="text-primary underline-offset-4 hover:underline">
                Review items
              </Link>
              <Link href={`${base}/grade-import`} className="text-primary underline-offset-4 hover:underline">
                Import grades
              </Link>
            </p>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Automated judges</CardTitle>
            <CardDescription>
              Judges grade beside the clinicians, never instead of them, and graders never see them. Import a judge&apos;s scores, or run one against an OpenAI-compatible
              endpoint in the background; the dashboard compares each judge with the panel.
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            {judges.length ? <JudgeRunsPanel studyId={detail.id} judges={judges} endpoints={endpoints} /> : null}
            <JudgeImportForm studyId={detail.id} judges={judges.map((j) => ({ id: j.id, name: j.name }))} />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Embedding similarity</CardTitle>
            <CardDescription>
              Beside BLEU and ROUGE: the cosine similarity (-1 to 1) of each answer and its question&apos;s reference answer as vectors of an embeddings model, run against an
              endpoint an admin set up. It is not BERTScore (no token alignment). Shown in the set detail, the sets API and the exports.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <EmbeddingRunPanel studyId={detail.id} endpoints={embeddingEndpoints} latest={embedRuns[0] ?? null} coverage={coverage} />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Settings</CardTitle>
            <CardDescription>
              {detail.gradingStarted ? "Grading has started: rubrics and N are locked, and k can only be raised." : "Nothing is graded yet: every setting can change."}{" "}
              <Link href={`${base}/settings`} className="text-primary underline underline-offset-4 hover:decoration-2">
                Edit settings
              </Link>
            </CardDescription>
          </CardHeader>
          <CardContent>
            <dl className="divide-y divide-border">
              <Setting label="Graders see it as">
                {detail.graderFacingTitle}
                {detail.graderTitle ? null : <span className="text-muted-foreground"> (neutral: no title set)</span>}
              </Setting>
              {detail.description ? <Setting label="Description">{detail.description}</Setting> : null}
              <Setting label="Rubrics">{detail.rubricDocuments.map((r) => r.name).join(" + ")}</Setting>
              <Setting label="Answers per prompt (N)">{detail.repetitions}</Setting>
              <Setting label="Primary graders per set (k)">{detail.gradersPerSet}</Setting>
              <Setting label="Reference answer">{detail.showReferenceAnswer ? "Shown to graders" : "Hidden from graders"}</Setting>
              {detail.repetitions >= 2 ? (
                <Setting label="Contradictions">{detail.askContradictions ? "Graders are asked whether the answers contradict each other" : "Graders are not asked"}</Setting>
              ) : null}
              <Setting label="Assignment design">
                <span data-testid="assignment-design">{DESIGN_LABEL[detail.assignmentDesign]}</span>
              </Setting>
              <Setting label="Specialty matching">{detail.matchSpecialty ? "Graders get only questions of their specialty" : "Any grader may get any question"}</Setting>
              {detail.rubricDocuments
                .filter((r) => r.overallHeadline !== undefined)
                .map((r) => (
                  <Setting key={r.key} label={`${r.name} scoring`}>
                    {PROMPT_SCORING_LABEL[detail.safeLlmScoring]}
                  </Setting>
                ))}
              {detail.rubricDocuments
                .filter((r) => Object.keys(detail.thresholds[r.key] ?? {}).length > 0)
                .map((rubric) => (
                  <Setting key={rubric.key} label={`${rubric.name} escalation at`}>
                    <ul className="flex flex-wrap gap-x-4 gap-y-1">
                      {rubric.dimensions
                        .filter((d) => detail.thresholds[rubric.key]?.[d.key] !== undefined)
                        .map((d) => (
                          <li key={d.key}>
                            {d.name} <span className="tabular-nums font-medium">{detail.thresholds[rubric.key][d.key]}</span>
                          </li>
                        ))}
                    </ul>
                  </Setting>
                ))}
            </dl>
          </CardContent>
        </Card>
      </div>

      <Card className="h-fit">
        <CardHeader>
          <CardTitle>Status</CardTitle>
          <CardDescription>
            Created {formatDate(detail.createdAt)} by {detail.createdBy.name}
            {detail.openedAt ? `; opened ${formatDate(detail.openedAt)}` : ""}
            {detail.closedAt ? `; closed ${formatDate(detail.closedAt)}` : ""}.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <StudyStatusActions studyId={detail.id} status={detail.status} />
        </CardContent>
      </Card>
    </div>
  );
}
