import type { Metadata } from "next";
import { parseTableParams } from "@/lib/tables/search-params";
import { LeftWorkNotice } from "@/components/assignment/left-work-notice";
import { AddGraderForm } from "@/components/studies/add-grader-form";
import { assignmentProgress } from "@/lib/assignment/service";
import { BulkAddGradersForm } from "@/components/studies/bulk-add-graders-form";
import { GradersTable } from "@/components/studies/graders-table";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { listGraderCandidates } from "@/lib/graders/candidates";
import { listGraders } from "@/lib/graders/queries";
import { graderListQuerySchema } from "@/lib/graders/list-params";
import { loadStudyForPage } from "@/lib/studies/page-access";
import { DeadlinesForm } from "@/components/mail/deadlines-form";
import { InvitationsList } from "@/components/mail/invitations-list";
import { MailPreview } from "@/components/mail/mail-preview";
import { getDb } from "@/lib/db/client";
import { mailEnabled } from "@/lib/mail/config";
import { listInvitations } from "@/lib/mail/invitations";

export const metadata: Metadata = { title: "Study graders" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function StudyGradersPage({ params, searchParams }: Props) {
  const { id } = await params;
  const { study } = await loadStudyForPage(id);
  const { data: query } = parseTableParams(graderListQuerySchema, await searchParams);
  const [page, candidates, progress, invitations, schedule] = await Promise.all([
    listGraders(study.id, query),
    listGraderCandidates(study.id),
    assignmentProgress(study.id),
    listInvitations(study.id),
    getDb().study.findUniqueOrThrow({ where: { id: study.id }, select: { deadline: true, reminderDaysBefore: true } }),
  ]);
  const mail = mailEnabled();
  const rows = page.rows.map((r) => ({ ...r, studyId: study.id, addedAt: r.addedAt.toISOString() }));
  return (
    <div className="flex flex-col gap-6">
      <LeftWorkNotice graders={progress.graders} studyId={study.id} />
      {mail ? null : (
        <p role="note" data-testid="mail-off" className="rounded-md border bg-muted p-3 text-sm">
          E-mail is off on this server (no SMTP settings): new graders get a first password shown to you once, and no invitation, reminder
          or digest is sent. An administrator turns e-mail on with SMTP_URL and MAIL_FROM.
        </p>
      )}
      <Card>
        <CardHeader>
          <CardTitle>Add a grader</CardTitle>
          <CardDescription>
            A new email creates a grader account; an existing grader account joins this study too (it keeps its password).
          </CardDescription>
        </CardHeader>
        <CardContent>
          <AddGraderForm studyId={study.id} mail={mail} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Add many graders</CardTitle>
          <CardDescription>Paste emails or CSV lines, upload a CSV, or pick existing graders. All are added, or none: every problem is listed by line.</CardDescription>
        </CardHeader>
        <CardContent>
          <BulkAddGradersForm studyId={study.id} candidates={candidates} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Invitations</CardTitle>
          <CardDescription>
            New graders choose their own password from a link e-mailed to them; each link works once, until its date. Sending again makes a new link.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <InvitationsList studyId={study.id} rows={invitations} mail={mail} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Deadline and reminders</CardTitle>
        </CardHeader>
        <CardContent>
          <DeadlinesForm
            studyId={study.id}
            deadline={schedule.deadline ? schedule.deadline.toISOString().slice(0, 10) : null}
            reminderDaysBefore={schedule.reminderDaysBefore}
            mail={mail}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Messages graders and leads get</CardTitle>
          <CardDescription>
            The invitation, the reminders, the digests and the notice of a grader leaving with open work, in plain text and HTML, as this study
            sends them: under the title graders see, never the study&apos;s name or a model&apos;s.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <MailPreview studyId={study.id} />
        </CardContent>
      </Card>
      <div className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold">Graders</h2>
        <p className="text-sm text-muted-foreground">Load: assignments in this study (cancelled ones not counted) and how many are submitted.</p>
        <GradersTable page={{ ...page, rows }} sort={query.sort} />
      </div>
    </div>
  );
}
