"use client";

import { useCallback, useEffect, useState } from "react";
import { ProgressBar } from "@/components/grading/progress-bar";
import { apiRequest } from "@/components/studies/api-client";
import { FormMessage } from "@/components/studies/form-field";
import { Button } from "@/components/ui/button";
import type { EmbeddingCoverage, EmbeddingRunView } from "@/lib/embeddings/contract";

/**
 * The study's embedding similarity: how many answers have one, the latest run polled every two
 * seconds while it waits or runs (the server's workers do the work: closing the page stops
 * nothing), and a start on one of the endpoints an admin offered for embeddings.
 */
export interface EmbeddingEndpointOption {
  id: string;
  name: string;
  embeddingModel: string;
}

const POLL_MS = 2000;
const active = (r: EmbeddingRunView | null) => r?.status === "PENDING" || r?.status === "RUNNING";

function RunStatus({ run }: { run: EmbeddingRunView }) {
  const what = run.status === "PENDING" ? "Waiting for a worker" : run.status === "RUNNING" ? "Running" : run.status === "DONE" ? "Finished" : "Failed";
  return (
    <div className="flex flex-col gap-1.5">
      {active(run) ? <ProgressBar value={run.embedded} max={run.answers} label={`Embedding run: ${run.embedded} of ${run.answers} answers embedded`} /> : null}
      <p className="text-xs text-muted-foreground tabular-nums" data-testid="embedding-run-status">
        {what}: {run.embedded.toLocaleString("en")} of {run.answers.toLocaleString("en")} answers embedded with {run.model} via {run.endpoint}
        {run.dimensions ? ` (${run.dimensions} dimensions)` : ""}, {run.requests.toLocaleString("en")} requests.
        {run.status === "FAILED" ? " Nothing of this run was stored." : ""}
      </p>
      {run.error ? <p className="text-xs text-destructive">{run.error}</p> : null}
    </div>
  );
}

export function EmbeddingRunPanel({
  studyId,
  endpoints,
  latest,
  coverage: initialCoverage,
}: {
  studyId: string;
  endpoints: EmbeddingEndpointOption[];
  latest: EmbeddingRunView | null;
  coverage: EmbeddingCoverage;
}) {
  const [run, setRun] = useState(latest);
  const [coverage, setCoverage] = useState(initialCoverage);
  const [endpointId, setEndpointId] = useState(endpoints[0]?.id ?? "");
  const [model, setModel] = useState(endpoints[0]?.embeddingModel ?? "");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const base = `/api/v1/studies/${studyId}/embedding-runs`;

  const refresh = useCallback(async () => {
    const res = await fetch(base, { credentials: "same-origin" }).catch(() => null);
    if (!res?.ok) return;
    const body = (await res.json()) as { runs: EmbeddingRunView[]; coverage: EmbeddingCoverage };
    setRun(body.runs[0] ?? null);
    setCoverage(body.coverage);
  }, [base]);

  useEffect(() => {
    if (!active(run)) return;
    const t = setInterval(() => void refresh(), POLL_MS);
    return () => clearInterval(t);
  }, [run, refresh]);

  async function start() {
    setPending(true);
    setError(null);
    const result = await apiRequest<EmbeddingRunView>("POST", base, { endpointId, ...(model.trim() ? { model: model.trim() } : {}) });
    setPending(false);
    if (!result.ok) setError(Object.values(result.fieldErrors)[0] ?? result.error);
    else setRun(result.data);
  }

  const stale = coverage.withSimilarity < coverage.answersWithReference && run?.status === "DONE";
  return (
    <div className="flex flex-col gap-3" data-testid="embedding-similarity">
      <p className="text-sm tabular-nums" data-testid="embedding-coverage">
        {coverage.withSimilarity.toLocaleString("en")} of {coverage.answersWithReference.toLocaleString("en")} answers with a reference answer have an embedding similarity
        {coverage.model ? ` (${coverage.model} via ${coverage.endpoint})` : ""}.
        {stale ? " Answers or references changed since the last run: run it again to compute theirs." : ""}
      </p>
      {run ? <RunStatus run={run} /> : null}
      {coverage.answersWithReference === 0 ? (
        <p className="text-sm text-muted-foreground">No answer has a reference answer to compare with: import reference answers first.</p>
      ) : endpoints.length === 0 ? (
        <p className="text-sm text-muted-foreground">No endpoint is offered for embeddings: an admin gives one an embedding model (PATCH /api/v1/judge-endpoints/&#123;id&#125; with embeddingModel).</p>
      ) : (
        <div className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col gap-1 text-xs text-muted-foreground">
            Endpoint
            <select
              className="h-8 rounded-md border border-input bg-background px-2 text-sm text-foreground"
              value={endpointId}
              onChange={(e) => {
                setEndpointId(e.target.value);
                setModel(endpoints.find((x) => x.id === e.target.value)?.embeddingModel ?? "");
              }}
            >
              {endpoints.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-xs text-muted-foreground">
            Embedding model
            <input className="h-8 w-56 rounded-md border border-input bg-background px-2 text-sm text-foreground" value={model} maxLength={200} onChange={(e) => setModel(e.target.value)} />
          </label>
          <Button type="button" size="sm" disabled={pending || !endpointId || active(run)} onClick={() => void start()}>
            Compute embedding similarity
          </Button>
        </div>
      )}
      <FormMessage error={error} />
    </div>
  );
}
