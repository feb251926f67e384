import type { Metadata } from "next";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { graderQueue } from "@/lib/grading/queue";
import { GRADER_ROLES, requireUser } from "@/lib/server/page-guard";

export const metadata: Metadata = { title: "My grading queue" };

const STATUS = {
  PENDING: { label: "to do", variant: "secondary" },
  IN_PROGRESS: { label: "draft", variant: "warning" },
  SUBMITTED: { label: "submitted", variant: "success" },
} as const;

export default async function QueuePage() {
  const user = await requireUser(GRADER_ROLES);
  const queue = await graderQueue(user.id);
  const done = queue.filter((a) => a.status === "SUBMITTED").length;
  return (
    <section className="flex flex-col gap-4">
      <div>
        <h1 className="text-2xl font-semibold">My grading queue</h1>
        <p className="text-sm text-muted-foreground">
          Answers are shown without the name of the model that wrote them, and you never see other graders&apos; scores.
        </p>
      </div>
      <div className="flex items-center gap-3" aria-label="Progress">
        <progress className="h-2 w-64 accent-[var(--color-primary)]" max={Math.max(queue.length, 1)} value={done} />
        <span className="text-sm tabular-nums">
          {done} / {queue.length} done
        </span>
      </div>
      {queue.length === 0 ? (
        <p className="rounded-md border border-dashed border-border p-8 text-center text-muted-foreground">
          Nothing to grade yet. Your study lead will assign answer sets to you.
        </p>
      ) : (
        <Table aria-label="Assignments">
          <TableHeader>
            <TableRow>
              <TableHead className="w-12">#</TableHead>
              <TableHead>Specialty</TableHead>
              <TableHead>Question</TableHead>
              <TableHead>Status</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {queue.map((a, i) => (
              <TableRow key={a.id}>
                <TableCell className="tabular-nums">{i + 1}</TableCell>
                <TableCell>{a.specialty}</TableCell>
                <TableCell className="max-w-xl truncate">{a.question}</TableCell>
                <TableCell>
                  <Badge variant={STATUS[a.status].variant}>{STATUS[a.status].label}</Badge>
                  {a.kind === "ADJUDICATOR" ? <span className="ml-2 text-xs text-muted-foreground">third grader</span> : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
