"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { ImportResult } from "@/lib/import/service";
import { ModelMentions } from "./model-mentions";


interface Problem {
  row: number;
  line?: number;
  column: string | null;
  message: string;
}

type State =
  | { phase: "idle" }
  | { phase: "checking" | "importing"; file: File }
  | { phase: "preview"; file: File; result: ImportResult }
  | { phase: "done"; file: File; result: ImportResult }
  | { phase: "problems"; file: File; status: number; message: string; problems: Problem[]; total: number }
  | { phase: "failed"; file: File | null; message: string };

const KIND_LABEL = { full: "questions and answers", questions: "questions only", answers: "answers only" } as const;

const n = (x: number) => x.toLocaleString("en");
const plural = (x: number, one: string, many = `${one}s`) => `${n(x)} ${x === 1 ? one : many}`;

function contentType(file: File): string {
  return /\.json$/i.test(file.name) || file.type === "application/json" ? "application/json" : "text/csv";
}

async function upload(studyId: string, file: File, dryRun: boolean, terms: string): Promise<State> {
  let res: Response;
  const query = new URLSearchParams();
  if (dryRun) query.set("dryRun", "1");
  if (terms.trim()) query.set("terms", terms.trim());
  try {
    res = await fetch(`/api/v1/studies/${studyId}/import${query.size ? `?${query}` : ""}`, {
      method: "POST",
      body: file,
      headers: { "content-type": contentType(file) },
      credentials: "same-origin",
    });
  } catch {
    return { phase: "failed", file, message: "The upload did not reach the server. Check the connection and try again." };
  }
  const body = (await res.json().catch(() => null)) as (ImportResult & { error?: string; details?: { errors?: Problem[]; total?: number } }) | null;
  if (res.ok && body) return { phase: dryRun ? "preview" : "done", file, result: body };
  if ((res.status === 422 || res.status === 409) && body?.details?.errors) {
    return { phase: "problems", file, status: res.status, message: body.error ?? "The file has problems.", problems: body.details.errors, total: body.details.total ?? body.details.errors.length };
  }
  return { phase: "failed", file, message: body?.error ?? `The server answered ${res.status}.` };
}

function Counts({ result, done }: { result: ImportResult; done: boolean }) {
  const answers = result.kind !== "questions";
  const questions = result.kind !== "answers";
  const verb = done ? "" : " (would be)";
  return (
    <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-4" aria-label="Counts">
      <div>
        <dt className="text-muted-foreground">Questions in the file</dt>
        <dd className="text-lg font-semibold tabular-nums">{n(result.items)}</dd>
        {questions ? (
          <dd className="text-xs text-muted-foreground">
            {n(result.questions.created)} new, {n(result.questions.updated)} changed, {n(result.questions.unchanged)} unchanged
          </dd>
        ) : null}
      </div>
      {answers ? (
        <>
          <div>
            <dt className="text-muted-foreground">Answers in the file</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid="answers-in-file">
              {n(result.responses)}
            </dd>
            <dd className="text-xs text-muted-foreground">
              {plural(result.responseSets, "question × model set")}, N = {result.repetitions}
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground">New answers{verb}</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid="answers-created">
              {n(result.created)}
            </dd>
            <dd className="text-xs text-muted-foreground">
              {n(result.unchanged)} already there, {n(result.updated)} replaced
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Incomplete sets</dt>
            <dd className="text-lg font-semibold tabular-nums">{n(result.incompleteSets.count)}</dd>
            <dd className="text-xs text-muted-foreground">fewer than {result.repetitions} answers: not graded yet</dd>
          </div>
        </>
      ) : null}
    </dl>
  );
}

function Incomplete({ result }: { result: ImportResult }) {
  const { count, examples } = result.incompleteSets;
  if (count === 0) return null;
  return (
    <div className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      <p className="font-medium">
        {plural(count, "question × model set")} without all {result.repetitions} answers will not be offered for grading until the missing answers are
        imported (an answers-only file will do).
      </p>
      <ul className="mt-2 list-disc pl-5">
        {examples.map((e) => (
          <li key={`${e.itemId}\u0000${e.model}`}>
            <span className="font-mono">{e.itemId}</span> × {e.model}: has {e.repetitions.length ? e.repetitions.join(", ") : "none"}
          </li>
        ))}
        {count > examples.length ? <li>… and {n(count - examples.length)} more</li> : null}
      </ul>
    </div>
  );
}

function Problems({ state }: { state: Extract<State, { phase: "problems" }> }) {
  return (
    <div className="flex flex-col gap-3">
      <div role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm">
        <p className="font-medium">
          <span data-testid="problems-file">{state.file.name}</span>: {state.message}
        </p>
        <p className="text-muted-foreground">
          {state.status === 409
            ? "These rows would change questions or answers that graders have already scored. Keep their text as imported before."
            : "Fix the rows below in your file and choose it again. Row 1 is the first row under the header; row 0 is the header itself."}
        </p>
      </div>
      <Table aria-label="Problems in the file">
        <TableHeader>
          <TableRow>
            <TableHead className="w-20 text-right">Row</TableHead>
            <TableHead className="w-20 text-right">Line</TableHead>
            <TableHead className="w-40">Column</TableHead>
            <TableHead>Problem</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {state.problems.map((p, i) => (
            <TableRow key={i}>
              <TableCell className="text-right tabular-nums">{p.row === 0 ? "header" : p.row}</TableCell>
              <TableCell className="text-right tabular-nums text-muted-foreground">{p.line ?? ""}</TableCell>
              <TableCell className="font-mono text-xs">{p.column ?? ""}</TableCell>
              <TableCell>{p.message}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {state.total > state.problems.length ? (
        <p className="text-sm text-muted-foreground">
          Showing the first {n(state.problems.length)} of {plural(state.total, "problem")}.
        </p>
      ) : null}
    </div>
  );
}

/**
 * Choose a file: it is checked in full on the server first (?dryRun=1, which
 * writes nothing) and the counts or every problem are shown; only then does
 * "Import" send it for real.
 */
export function ImportPanel({ studyId, studyHref, repetitions, maxBytes }: { studyId: string; studyHref: string; repetitions: number; maxBytes: number }) {
  const [state, setState] = useState<State>({ phase: "idle" });
  const [terms, setTerms] = useState("");
  const inputId = useId();
  const termsId = useId();
  const busy = state.phase === "checking" || state.phase === "importing";

  async function check(file: File) {
    if (file.size > maxBytes) {
      setState({ phase: "failed", file, message: `This file is ${n(Math.ceil(file.size / 1024 / 1024))} MB; the limit is ${n(Math.floor(maxBytes / 1024 / 1024))} MB. Split it into several files.` });
      return;
    }
    setState({ phase: "checking", file });
    setState(await upload(studyId, file, true, terms));
  }

  async function importFile(file: File) {
    setState({ phase: "importing", file });
    setState(await upload(studyId, file, false, terms));
  }

  const file = "file" in state ? state.file : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Choose a file</CardTitle>
        <CardDescription>It is checked in full before anything is written; you then see what it holds and every problem in it.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex flex-col gap-1">
          <Label htmlFor={termsId}>Words that would reveal a model (optional)</Label>
          <input
            id={termsId}
            type="text"
            value={terms}
            disabled={busy}
            maxLength={2000}
            onChange={(e) => setTerms(e.target.value)}
            placeholder="e.g. a product or database name, comma-separated"
            className="h-9 max-w-xl rounded-md border border-border bg-background px-2 text-sm"
          />
          <p className="text-xs text-muted-foreground">The answers are also searched for the models&apos; names and versions.</p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Label htmlFor={inputId}>CSV or JSON file</Label>
          <input
            id={inputId}
            type="file"
            accept=".csv,.json,.txt,text/csv,application/json"
            disabled={busy}
            className="text-sm file:mr-3 file:rounded-md file:border file:border-border file:bg-background file:px-3 file:py-1.5 file:text-sm hover:file:bg-muted"
            onChange={(e) => {
              const chosen = e.target.files?.[0];
              // Cleared so that choosing the same file again (after fixing it) fires a change.
              e.target.value = "";
              if (chosen) void check(chosen);
            }}
          />
          {/* The input is cleared after each choice (so the same file can be chosen again once fixed):
              the file's name is kept here, above all after a failed check. */}
          {file && state.phase !== "done" ? (
            <span className="text-sm" data-testid="chosen-file">
              Last chosen: <span className="font-medium">{file.name}</span>
            </span>
          ) : null}
        </div>

        <div aria-live="polite" className="flex flex-col gap-4">
          {state.phase === "checking" ? <p className="text-sm text-muted-foreground">Checking {file?.name}…</p> : null}
          {state.phase === "importing" ? <p className="text-sm text-muted-foreground">Importing {file?.name}…</p> : null}

          {state.phase === "preview" ? (
            <div className="flex flex-col gap-4">
              <p className="text-sm">
                <span className="font-medium">{state.file.name}</span> is ready to import <Badge variant="secondary">{KIND_LABEL[state.result.kind]}</Badge>{" "}
                <span className="text-muted-foreground">Nothing has been written yet.</span>
              </p>
              <Counts result={state.result} done={false} />
              <Incomplete result={state.result} />
              <ModelMentions result={state.result} />
              {state.result.duplicateRows > 0 ? (
                <p className="text-sm text-muted-foreground">{plural(state.result.duplicateRows, "row repeats", "rows repeat")} an earlier row exactly and counts once.</p>
              ) : null}
              <div className="flex flex-wrap gap-3">
                <Button onClick={() => void importFile(state.file)}>
                  {state.result.kind === "questions" ? `Import ${plural(state.result.items, "question")}` : `Import ${plural(state.result.responses, "answer")}`}
                </Button>
                <Button variant="outline" onClick={() => setState({ phase: "idle" })}>
                  Cancel
                </Button>
              </div>
            </div>
          ) : null}

          {state.phase === "done" ? (
            <div className="flex flex-col gap-4" role="status">
              <h3 className="font-semibold">Imported</h3>
              <p className="text-sm">
                {state.result.kind === "questions"
                  ? `${plural(state.result.questions.created, "question")} added, ${n(state.result.questions.updated)} changed, ${n(state.result.questions.unchanged)} unchanged.`
                  : `${plural(state.result.created, "answer")} added, ${n(state.result.updated)} replaced, ${n(state.result.unchanged)} unchanged.`}
                {state.result.created + state.result.updated + state.result.questions.created + state.result.questions.updated === 0
                  ? " Everything in this file was already in the study."
                  : ""}
              </p>
              <Counts result={state.result} done />
              <Incomplete result={state.result} />
              <ModelMentions result={state.result} />
              <p className="text-sm">
                <Link href={studyHref} className="text-primary underline-offset-4 hover:underline">
                  Back to the study
                </Link>
              </p>
            </div>
          ) : null}

          {state.phase === "problems" ? <Problems state={state} /> : null}

          {state.phase === "failed" ? (
            <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm">
              {state.file ? `${state.file.name}: ` : ""}
              {state.message}
            </p>
          ) : null}
        </div>

        {state.phase === "idle" ? (
          <p className="text-xs text-muted-foreground">
            Each question × model needs {repetitions} answers (repetition 1 to {repetitions}).
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
