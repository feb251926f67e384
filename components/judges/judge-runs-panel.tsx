"use client";

import { useCallback, useEffect, useState } from "react";
import { ProgressBar } from "@/components/grading/progress-bar";
import { apiRequest } from "@/components/studies/api-client";
import { FormMessage } from "@/components/studies/form-field";
import { Button } from "@/components/ui/button";
import type { JudgeEndpointView, RunProgress } from "@/lib/judges/runner/contract";

/**
 * A study's judges with their latest run: a progress bar polled every two
 * seconds while the run goes on (the work is done by the server's workers,
 * not this page: closing it stops nothing), and start, cancel and resume.
 */
export interface JudgeRow {
  id: string;
  name: string;
  /** Judgments stored for the judge, imported or run here. */
  scores: number;
  latest: RunProgress | null;
}

const POLL_MS = 2000;

function RunSummary({ run }: { run: RunProgress }) {
  const settled = run.tasks.done + run.tasks.failed + run.tasks.cancelled;
  return (
    <div className="flex flex-col gap-1.5">
      <ProgressBar value={run.tasks.done} max={run.tasks.total} label={`Judge run: ${run.tasks.done} of ${run.tasks.total} answer sets scored`} />
      <p className="text-xs text-muted-foreground tabular-nums" data-testid="judge-run-summary">
        {run.status === "RUNNING" ? "Running" : run.status === "DONE" ? "Finished" : "Cancelled"}: {run.tasks.done} of {run.tasks.total} answer sets scored
        {run.tasks.failed ? `, ${run.tasks.failed} failed` : ""}
        {run.tasks.cancelled ? `, ${run.tasks.cancelled} cancelled` : ""}
        {run.tasks.retrying ? `, ${run.tasks.retrying} waiting to retry` : ""}
        {run.status === "RUNNING" && settled < run.tasks.total ? `, ${run.tasks.running} in progress` : ""}. {run.judgeModel} via {run.endpoint} ({run.mode === "logprobs" ? "logprobs" : `${run.samples} samples`}); {(run.promptTokens + run.completionTokens).toLocaleString("en")} tokens, cost {run.cost.toFixed(4)}.
      </p>
      {run.errors.length ? (
        <ul className="text-xs text-destructive">
          {run.errors.slice(0, 5).map((e, i) => (
            <li key={i}>
              {e.item}: {e.error}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function JudgeRunRow({ studyId, judge, endpoints }: { studyId: string; judge: JudgeRow; endpoints: JudgeEndpointView[] }) {
  const [run, setRun] = useState<RunProgress | null>(judge.latest);
  const [endpointId, setEndpointId] = useState(endpoints[0]?.id ?? "");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const base = `/api/v1/studies/${studyId}/judges/${judge.id}/runs`;

  const refresh = useCallback(async () => {
    if (!run) return;
    const res = await fetch(`${base}/${run.id}`, { credentials: "same-origin" }).catch(() => null);
    if (res?.ok) setRun((await res.json()) as RunProgress);
  }, [base, run]);

  useEffect(() => {
    if (run?.status !== "RUNNING") return;
    const t = setInterval(() => void refresh(), POLL_MS);
    return () => clearInterval(t);
  }, [run?.status, refresh]);

  async function act(url: string, body?: unknown) {
    setPending(true);
    setError(null);
    const result = await apiRequest<RunProgress>("POST", url, body ?? {});
    setPending(false);
    if (!result.ok) setError(Object.values(result.fieldErrors)[0] ?? result.error);
    else setRun(result.data);
  }

  const canResume = run && run.status !== "RUNNING" && run.tasks.failed + run.tasks.cancelled > 0;
  return (
    <li className="flex flex-col gap-2 py-3" data-testid={`judge-${judge.name}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium">{judge.name}</span>
        <div className="flex flex-wrap items-center gap-2">
          {run?.status === "RUNNING" ? (
            <Button type="button" size="sm" variant="outline" disabled={pending} onClick={() => act(`${base}/${run.id}/cancel`)}>
              Cancel run
            </Button>
          ) : (
            <>
              {canResume ? (
                <Button type="button" size="sm" variant="outline" disabled={pending} onClick={() => act(`${base}/${run!.id}/resume`)}>
                  Resume
                </Button>
              ) : null}
              {endpoints.length ? (
                <>
                  <label className="sr-only" htmlFor={`endpoint-${judge.id}`}>
                    Endpoint for {judge.name}
                  </label>
                  <select id={`endpoint-${judge.id}`} className="h-8 rounded-md border border-input bg-background px-2 text-sm" value={endpointId} onChange={(e) => setEndpointId(e.target.value)}>
                    {endpoints.map((e) => (
                      <option key={e.id} value={e.id}>
                        {e.name} ({e.model})
                      </option>
                    ))}
                  </select>
                  <Button type="button" size="sm" disabled={pending || !endpointId} onClick={() => act(base, { endpointId })}>
                    Run judge
                  </Button>
                </>
              ) : null}
            </>
          )}
        </div>
      </div>
      {run ? <RunSummary run={run} /> : null}
      <p className="text-xs text-muted-foreground tabular-nums" data-testid="judge-scores-count">
        {judge.scores
          ? `${judge.scores.toLocaleString("en")} score${judge.scores === 1 ? "" : "s"} stored${run ? "" : " (imported; not run from here)"}.`
          : run
            ? "No scores stored yet."
            : "No scores yet: import a file below or run the judge."}
      </p>
      <FormMessage error={error} />
    </li>
  );
}

export function JudgeRunsPanel({ studyId, judges, endpoints }: { studyId: string; judges: JudgeRow[]; endpoints: JudgeEndpointView[] }) {
  return (
    <div className="flex flex-col gap-2">
      {endpoints.length === 0 ? <p className="text-sm text-muted-foreground">No endpoint is set up to run judges against: an admin adds one (POST /api/v1/judge-endpoints).</p> : null}
      <ul className="divide-y divide-border">
        {judges.map((j) => (
          <JudgeRunRow key={j.id} studyId={studyId} judge={j} endpoints={endpoints} />
        ))}
      </ul>
    </div>
  );
}
