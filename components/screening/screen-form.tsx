"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { ScreenActionKey, ScreeningResultBody } from "@/lib/screening/contract";
import type { ScreenRule } from "@/lib/screening/rules";
import { ScreenResults } from "./screen-results";

/**
 * The lead's screen: a list of rules (a term or an RE2 regular expression,
 * each named by its reason), optionally an automated judge (an endpoint an
 * admin set up, and the screening prompt), the mode, a dry run to see the
 * rules' hits, then the run, which replaces the study's screen (with a judge,
 * once the judge has read every answer).
 */

type Row = { name: string; kind: "term" | "regex"; pattern: string };
type Outcome = { phase: "idle" } | { phase: "busy" } | { phase: "dry"; result: ScreeningResultBody } | { phase: "failed"; message: string; problems: string[] };

const EMPTY: Row = { name: "", kind: "term", pattern: "" };

export type EndpointChoice = { id: string; name: string; model: string };

export function ScreenForm({
  studyId,
  rules,
  action,
  endpoints,
  defaultPrompt,
  judge,
}: {
  studyId: string;
  rules: ScreenRule[];
  action: ScreenActionKey;
  endpoints: EndpointChoice[];
  defaultPrompt: string;
  judge: { endpointId: string; prompt: string } | null;
}) {
  const router = useRouter();
  const [rows, setRows] = useState<Row[]>(rules.length ? rules.map((r) => ({ name: r.name, kind: r.kind, pattern: r.pattern })) : [EMPTY]);
  const [useJudge, setUseJudge] = useState(judge !== null && endpoints.some((e) => e.id === judge.endpointId));
  const [endpointId, setEndpointId] = useState(judge?.endpointId || endpoints[0]?.id || "");
  const [prompt, setPrompt] = useState(judge?.prompt ?? defaultPrompt);
  const [mode, setMode] = useState<ScreenActionKey>(action);
  const [outcome, setOutcome] = useState<Outcome>({ phase: "idle" });
  const set = (i: number, patch: Partial<Row>) => setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  async function run(dryRun: boolean) {
    setOutcome({ phase: "busy" });
    const res = await fetch(`/api/v1/studies/${studyId}/screening`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      // Empty rows are left out, so a judge may screen alone; the dry run checks the rules only.
      body: JSON.stringify({
        rules: rows.filter((r) => r.name.trim() || r.pattern.trim()),
        action: mode,
        dryRun,
        ...(useJudge && !dryRun ? { judge: { endpointId, ...(prompt.trim() === defaultPrompt.trim() ? {} : { prompt }) } } : {}),
      }),
      credentials: "same-origin",
    }).catch(() => null);
    const body = (await res?.json().catch(() => null)) as (ScreeningResultBody & { error?: string; details?: unknown }) | null;
    if (res?.ok && body) {
      if (dryRun) setOutcome({ phase: "dry", result: body });
      else {
        setOutcome({ phase: "idle" });
        router.refresh();
      }
      return;
    }
    const details = body?.details as { path?: string; message: string }[] | { errors?: { message: string }[] } | undefined;
    const list = Array.isArray(details) ? details : (details?.errors ?? []);
    // A 400/422 from the rules' schema says "invalid input" and lists each problem; a rule stopped by its time limit says so itself.
    const message = Array.isArray(details) && details.length ? "Some rules cannot be run:" : (body?.error ?? (res ? `The server answered ${res.status}.` : "The request did not reach the server."));
    setOutcome({ phase: "failed", message, problems: Array.isArray(details) ? list.map((d) => d.message) : [] });
  }

  return (
    <form className="flex flex-col gap-4" onSubmit={(e) => e.preventDefault()} aria-label="Screening rules">
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-medium">Rules</legend>
        {rows.map((r, i) => (
          <div key={i} className="grid gap-2 sm:grid-cols-[minmax(0,1fr)_8rem_minmax(0,2fr)_auto] sm:items-end">
            <div className="flex flex-col gap-1">
              <Label htmlFor={`rule-name-${i}`}>Reason (rule name)</Label>
              <Input id={`rule-name-${i}`} value={r.name} onChange={(e) => set(i, { name: e.target.value })} />
            </div>
            <div className="flex flex-col gap-1">
              <Label htmlFor={`rule-kind-${i}`}>Kind</Label>
              <select
                id={`rule-kind-${i}`}
                className="h-9 rounded-md border border-input bg-background px-2 text-sm"
                value={r.kind}
                onChange={(e) => set(i, { kind: e.target.value as Row["kind"] })}
              >
                <option value="term">Term</option>
                <option value="regex">Regular expression</option>
              </select>
            </div>
            <div className="flex flex-col gap-1">
              <Label htmlFor={`rule-pattern-${i}`}>{r.kind === "term" ? "Term (whole word, any case)" : "Pattern (RE2 syntax)"}</Label>
              <Input id={`rule-pattern-${i}`} className="font-mono" value={r.pattern} onChange={(e) => set(i, { pattern: e.target.value })} />
            </div>
            <Button type="button" variant="outline" onClick={() => setRows((rs) => (rs.length > 1 ? rs.filter((_, j) => j !== i) : [EMPTY]))} aria-label={`Remove rule ${i + 1}`}>
              Remove
            </Button>
          </div>
        ))}
        <div>
          <Button type="button" variant="outline" onClick={() => setRows((rs) => [...rs, EMPTY])}>
            Add a rule
          </Button>
        </div>
      </fieldset>
      <fieldset className="flex flex-col gap-2 text-sm">
        <legend className="mb-1 font-medium">Automated judge (optional)</legend>
        {endpoints.length === 0 ? (
          <p className="text-muted-foreground">No judge endpoint is set up: an admin adds one under Judge endpoints.</p>
        ) : (
          <>
            <label className="flex items-center gap-2">
              <input type="checkbox" checked={useJudge} onChange={(e) => setUseJudge(e.target.checked)} />
              Also ask an automated judge about every answer (in the background; the dry run checks the rules only)
            </label>
            {useJudge ? (
              <div className="grid gap-2">
                <div className="flex flex-col gap-1">
                  <Label htmlFor="screen-endpoint">Endpoint</Label>
                  <select
                    id="screen-endpoint"
                    className="h-9 rounded-md border border-input bg-background px-2 text-sm"
                    value={endpointId}
                    onChange={(e) => setEndpointId(e.target.value)}
                  >
                    {endpoints.map((e) => (
                      <option key={e.id} value={e.id}>
                        {e.name} ({e.model})
                      </option>
                    ))}
                  </select>
                </div>
                <div className="flex flex-col gap-1">
                  <Label htmlFor="screen-prompt">Screening prompt</Label>
                  <textarea
                    id="screen-prompt"
                    className="min-h-28 rounded-md border border-input bg-background px-2 py-1 text-sm"
                    value={prompt}
                    onChange={(e) => setPrompt(e.target.value)}
                  />
                  <p className="text-xs text-muted-foreground">
                    The judge reads the question and the answer, never the model. It must reply {'{"unsafe": true or false, "reason": "…"}'} (appended to
                    the prompt); any other reply marks the answer &quot;could not screen&quot;.
                  </p>
                </div>
              </div>
            ) : null}
          </>
        )}
      </fieldset>
      <fieldset className="flex flex-col gap-1 text-sm">
        <legend className="mb-1 font-medium">Screened-out answers</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="screen-action" value="warn" checked={mode === "warn"} onChange={() => setMode("warn")} />
          Keep them for grading; graders see a neutral warning on each (never the rule)
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="screen-action" value="exclude" checked={mode === "exclude"} onChange={() => setMode("exclude")} />
          Exclude their answer sets from assignment (ungraded assignments of those sets are withdrawn; graded ones are kept)
        </label>
      </fieldset>
      <div className="flex gap-2">
        <Button type="button" variant="outline" disabled={outcome.phase === "busy"} onClick={() => run(true)}>
          Dry run
        </Button>
        <Button type="button" disabled={outcome.phase === "busy"} onClick={() => run(false)}>
          Run the screen
        </Button>
      </div>
      <div aria-live="polite">
        {outcome.phase === "busy" ? <p className="text-sm text-muted-foreground">Screening the answers…</p> : null}
        {outcome.phase === "failed" ? (
          <div role="alert" className="rounded-md border border-destructive/50 px-3 py-2 text-sm">
            <p>{outcome.message}</p>
            {outcome.problems.length ? (
              <ul className="mt-1 list-disc pl-5">
                {outcome.problems.map((p, i) => (
                  <li key={i}>{p}</li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
        {outcome.phase === "dry" ? <ScreenResults result={outcome.result} /> : null}
      </div>
    </form>
  );
}
