import { ArrowRight, CircleCheck, Lock } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { ProgressBar } from "@/components/grading/progress-bar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { listMyAssignments, type MyAssignment } from "@/lib/grading/service";
import { GRADER_ROLES, requireUser } from "@/lib/server/page-guard";

export const metadata: Metadata = { title: "My grading queue" };

const STATUS = {
  PENDING: { label: "To do", variant: "secondary" },
  IN_PROGRESS: { label: "Draft", variant: "warning" },
  SUBMITTED: { label: "Submitted", variant: "success" },
} as const;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Where "Continue where I left off" goes: the first draft, else the first answer set not started (open studies only). */
function resumeTarget(queue: MyAssignment[]): MyAssignment | undefined {
  const open = queue.filter((a) => a.studyOpen);
  return open.find((a) => a.status === "IN_PROGRESS") ?? open.find((a) => a.status === "PENDING");
}

/**
 * The grader's own queue, in their own (random) order. Only their own work and
 * progress: nothing names a model or another grader.
 */
export default async function QueuePage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser(GRADER_ROLES);
  const queue = await listMyAssignments(user.id);
  const { submitted } = await searchParams;
  const done = queue.filter((a) => a.status === "SUBMITTED").length;
  const drafts = queue.filter((a) => a.status === "IN_PROGRESS").length;
  const resume = resumeTarget(queue);
  const manyStudies = new Set(queue.map((a) => a.studyName)).size > 1;

  return (
    <section className="flex flex-col gap-6">
      {submitted === "1" ? (
        <p role="status" className="flex items-center gap-2 rounded-lg border border-green-200 bg-green-50 px-4 py-2.5 text-sm text-green-900">
          <CircleCheck aria-hidden className="size-4" />
          Your grades were submitted.{resume ? "" : " There is nothing left to grade in your queue for now: thank you."}
        </p>
      ) : null}

      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">My grading queue</h1>
          <p className="mt-1 max-w-2xl text-sm text-muted-foreground">
            Answers are shown without the name of the model that wrote them, and you never see other graders&apos; scores. Your order is your own.
          </p>
        </div>
        {resume ? (
          <Button asChild size="lg">
            <Link href={`/grade/${resume.id}`}>
              Continue where I left off
              <ArrowRight aria-hidden className="size-4" />
            </Link>
          </Button>
        ) : null}
      </div>

      <div className="rounded-xl border border-border bg-background p-5 shadow-sm">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <p className="text-sm text-muted-foreground">
            <span className="text-3xl font-semibold tabular-nums text-foreground" data-testid="queue-done">
              {done}
            </span>
            <span className="tabular-nums"> / {queue.length}</span> answer sets submitted
          </p>
          <p className="text-sm text-muted-foreground tabular-nums">
            {drafts} draft{drafts === 1 ? "" : "s"} · {queue.length - done - drafts} to do
          </p>
        </div>
        <ProgressBar value={done} max={queue.length} label="Answer sets submitted" className="mt-3 h-2.5" />
      </div>

      {queue.length === 0 ? (
        <p className="rounded-xl border border-dashed border-border p-10 text-center text-muted-foreground">
          Nothing to grade yet. Your study lead will assign answer sets to you.
        </p>
      ) : (
        <Table aria-label="My assignments">
          <TableHeader>
            <TableRow>
              <TableHead className="w-12">#</TableHead>
              <TableHead className="w-40">Specialty</TableHead>
              <TableHead>Question</TableHead>
              <TableHead className="w-48">Status</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {queue.map((a, i) => (
              <TableRow key={a.id} className={a.studyOpen ? undefined : "text-muted-foreground"}>
                <TableCell className="tabular-nums text-muted-foreground">{i + 1}</TableCell>
                <TableCell>{a.specialty}</TableCell>
                <TableCell className="max-w-xl py-2.5">
                  <Link
                    href={`/grade/${a.id}`}
                    className="line-clamp-2 font-medium text-foreground underline-offset-2 hover:text-primary hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                  >
                    {a.question}
                  </Link>
                  {manyStudies ? <span className="mt-0.5 block text-xs text-muted-foreground">{a.studyName}</span> : null}
                </TableCell>
                <TableCell>
                  <div className="flex flex-wrap items-center gap-1.5">
                    <Badge variant={STATUS[a.status].variant}>{STATUS[a.status].label}</Badge>
                    {a.kind === "ADJUDICATOR" ? <Badge variant="outline">Third grader</Badge> : null}
                    {a.studyOpen ? null : (
                      <span className="inline-flex items-center gap-1 text-xs">
                        <Lock aria-hidden className="size-3" />
                        Study closed: read-only
                      </span>
                    )}
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
