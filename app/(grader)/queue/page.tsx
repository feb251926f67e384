import { ArrowRight, CircleCheck } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { parseTableParams } from "@/lib/tables/search-params";
import { ProgressBar } from "@/components/grading/progress-bar";
import { NextShortcut } from "@/components/queue/next-shortcut";
import { QueueStudies } from "@/components/queue/queue-studies";
import { QueueTable } from "@/components/queue/queue-table";
import { Button } from "@/components/ui/button";
import { DigestToggle } from "@/components/mail/digest-toggle";
import { getDb } from "@/lib/db/client";
import { mailEnabled } from "@/lib/mail/config";
import { queueQuerySchema } from "@/lib/queue/params";
import { listQueuePage, listQueueStudies } from "@/lib/queue/queries";
import { listMyComparisons } from "@/lib/pairwise/grading";
import { ComparisonQueue } from "@/components/pairwise/comparison-queue";
import { GRADER_ROLES, requireUser } from "@/lib/server/page-guard";

export const metadata: Metadata = { title: "My grading queue" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * The grader's own queue: their studies (grader-facing titles only), each with
 * its progress, and one page of one study's sets in their own (random) order.
 * Only their own work and progress: nothing names a model or another grader.
 */
export default async function QueuePage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser(GRADER_ROLES);
  const raw = await searchParams;
  const { data: query } = parseTableParams(queueQuerySchema, raw);
  const [studies, me, comparisons] = await Promise.all([
    listQueueStudies(user.id),
    getDb().user.findUniqueOrThrow({ where: { id: user.id }, select: { weeklyDigest: true } }),
    listMyComparisons(user.id),
  ]);
  // The study shown: the one asked for if it is the grader's, else the first with work to do.
  const study = studies.find((s) => s.id === query.study) ?? studies[0];
  const page = study ? await listQueuePage(user.id, study.id, query) : null;
  const next = study?.nextId ?? studies.find((s) => s.nextId)?.nextId ?? null;
  const total = studies.reduce((n, s) => n + s.total, 0);
  const done = studies.reduce((n, s) => n + s.submitted, 0);

  return (
    <section className="flex flex-col gap-6">
      {raw.submitted === "1" ? (
        <p role="status" className="flex items-center gap-2 rounded-lg border border-green-200 bg-green-50 px-4 py-2.5 text-sm text-green-900">
          <CircleCheck aria-hidden className="size-4" />
          Your grades were submitted.{next ? "" : " There is nothing left to grade in your queue for now: thank you."}
        </p>
      ) : null}

      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">My grading queue</h1>
          <p className="mt-1 max-w-2xl text-sm text-muted-foreground">
            Answers are shown without the name of the model that wrote them, and you never see other graders&apos; scores. Your order is your own; sets of the
            same question are lettered A, B, C in that order. Sets waiting for your third grade come first: their final scores wait on you.{" "}
            <Link className="text-foreground underline" href="/calibration">
              My calibration results
            </Link>
          </p>
        </div>
        {next ? (
          <div className="flex flex-col items-end gap-1">
            <Button asChild size="lg">
              <Link href={`/grade/${next}`} aria-keyshortcuts="N" data-testid="queue-next">
                Continue where I left off
                <ArrowRight aria-hidden className="size-4" />
              </Link>
            </Button>
            {/* A keyboard's hint: not on a touch screen. */}
            <p className="text-xs text-muted-foreground pointer-coarse:hidden" data-testid="press-hint">
              or press <kbd className="rounded border border-border px-1 font-mono">N</kbd>: a set waiting for your third grade, else your first draft, else the first set not started
            </p>
            <NextShortcut href={`/grade/${next}`} />
          </div>
        ) : null}
      </div>

      <div className="rounded-xl border border-border bg-background p-5 shadow-sm">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <p className="text-sm text-muted-foreground">
            <span className="text-3xl font-semibold tabular-nums text-foreground" data-testid="queue-done">
              {done}
            </span>
            <span className="tabular-nums"> / {total}</span> answer sets submitted
            {studies.length > 1 ? <span> in {studies.length} studies</span> : null}
          </p>
        </div>
        <ProgressBar value={done} max={total} label="Answer sets submitted" className="mt-3 h-2.5" />
        {mailEnabled() ? (
          <div className="mt-4">
            <DigestToggle initial={me.weeklyDigest} />
          </div>
        ) : null}
      </div>

      {/* A pairwise study's work: comparisons of two answers (lib/pairwise). */}
      <ComparisonQueue comparisons={comparisons} />

      {(!study || !page) && comparisons.length > 0 ? null : !study || !page ? (
        <p className="rounded-xl border border-dashed border-border p-10 text-center text-muted-foreground">
          Nothing to grade yet. Your study lead will assign answer sets to you.
        </p>
      ) : (
        <>
          {studies.length > 1 ? <QueueStudies studies={studies} current={study.id} /> : null}
          <div className="flex flex-col gap-3">
            <h2 className="text-lg font-semibold">
              {study.title}
              {study.open ? null : <span className="ml-2 text-sm font-normal text-muted-foreground">closed: read-only</span>}
            </h2>
            {studies.length === 1 ? (
              <p className="text-sm text-muted-foreground tabular-nums">
                {study.drafts} draft{study.drafts === 1 ? "" : "s"} · {study.total - study.submitted - study.drafts} to do
              </p>
            ) : null}
            <QueueTable page={page} label="My assignments" />
          </div>
        </>
      )}
    </section>
  );
}
