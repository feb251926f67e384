"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiRequest } from "@/components/studies/api-client";
import { describedBy, Field, FormMessage } from "@/components/studies/form-field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

/**
 * Registers an automated judge and imports its scores from a long CSV
 * (item_id, model, repetition, dimension, score[, p_<level>...][, confidence][, rationale]):
 * checked first (dry run, nothing written: a new judge is not even registered yet), then imported. The API refuses
 * the whole file and lists each problem by row and column; they are shown
 * here as a table.
 */
interface Problem {
  row: number;
  column: string | null;
  message: string;
}
interface Result {
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  renormalised: number;
}

export function JudgeImportForm({ studyId, judges }: { studyId: string; judges: { id: string; name: string }[] }) {
  const router = useRouter();
  const [judgeId, setJudgeId] = useState(judges[0]?.id ?? "new");
  const [name, setName] = useState("");
  const [model, setModel] = useState("");
  const [version, setVersion] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<Problem[]>([]);
  const [checked, setChecked] = useState<Result | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function send(dryRun: boolean) {
    if (!file) return;
    setPending(true);
    setError(null);
    setProblems([]);
    setDone(null);
    setFieldErrors({});
    let id = judgeId;
    // A check writes nothing: a new judge is registered only when its scores are imported.
    if (id === "new" && !dryRun) {
      const created = await apiRequest<{ id: string }>("POST", `/api/v1/studies/${studyId}/judges`, { name, model, ...(version ? { version } : {}) });
      if (!created.ok) {
        setPending(false);
        setFieldErrors(created.fieldErrors);
        setError(created.error);
        return;
      }
      id = created.data.id;
      setJudgeId(id);
    }
    const url = id === "new" ? `/api/v1/studies/${studyId}/judges/check-scores` : `/api/v1/studies/${studyId}/judges/${id}/scores${dryRun ? "?dryRun=1" : ""}`;
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "text/csv" },
      body: await file.text(),
      credentials: "same-origin",
    }).catch(() => null);
    setPending(false);
    if (!res) return setError("The server could not be reached. Check your connection and try again.");
    const payload = (await res.json().catch(() => null)) as { error?: string; details?: { errors?: Problem[] } } & Partial<Result>;
    if (!res.ok) {
      setError(payload?.error ?? `The import failed (HTTP ${res.status}).`);
      setProblems(payload?.details?.errors ?? []);
      setChecked(null);
      return;
    }
    const r = payload as Result;
    if (dryRun) setChecked(r);
    else {
      setChecked(null);
      setDone(`Imported: ${r.created} new, ${r.updated} changed, ${r.unchanged} unchanged judgments.`);
      router.refresh();
    }
  }

  const newJudge = judgeId === "new";
  return (
    <form
      className="flex flex-col gap-3"
      aria-label="Import a judge's scores"
      onSubmit={(e) => {
        e.preventDefault();
        void send(!checked);
      }}
    >
      <Field id="judge-target" label="Judge">
        <select
          id="judge-target"
          className="h-9 rounded-md border border-input bg-background px-2 text-sm"
          value={judgeId}
          onChange={(e) => {
            setJudgeId(e.target.value);
            setChecked(null);
          }}
        >
          {judges.map((j) => (
            <option key={j.id} value={j.id}>
              {j.name}
            </option>
          ))}
          <option value="new">A new judge…</option>
        </select>
      </Field>
      {newJudge ? (
        <div className="grid gap-3 sm:grid-cols-3">
          <Field id="judge-name" label="Name" error={fieldErrors.name}>
            <Input id="judge-name" required maxLength={120} value={name} onChange={(e) => setName(e.target.value)} aria-describedby={describedBy("judge-name", undefined, fieldErrors.name)} />
          </Field>
          <Field id="judge-model" label="Model" error={fieldErrors.model}>
            <Input id="judge-model" required maxLength={200} value={model} onChange={(e) => setModel(e.target.value)} aria-describedby={describedBy("judge-model", undefined, fieldErrors.model)} />
          </Field>
          <Field id="judge-version" label="Version (optional)" error={fieldErrors.version}>
            <Input id="judge-version" maxLength={200} value={version} onChange={(e) => setVersion(e.target.value)} />
          </Field>
        </div>
      ) : null}
      <Field id="judge-file" label="Scores (CSV)" hint="Columns: item_id, model, repetition, dimension, score; optionally p_<level> for each level, confidence, rationale.">
        <Input
          id="judge-file"
          type="file"
          accept=".csv,text/csv"
          required
          aria-describedby="judge-file-hint"
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setChecked(null);
            setProblems([]);
          }}
        />
      </Field>
      {checked ? (
        <p role="status" className="text-sm" data-testid="judge-check">
          Checked: {checked.rows} rows, all valid
          {checked.renormalised ? `; ${checked.renormalised} rows' probabilities will be divided by their sum (within 1e-6 of 1)` : ""}. Nothing is written until you import.
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending || !file || (newJudge && (!name.trim() || !model.trim()))}>
          {checked ? "Import scores" : "Check file"}
        </Button>
      </div>
      <FormMessage error={error} success={done} />
      {problems.length ? (
        <table className="w-full text-left text-sm" data-testid="judge-problems">
          <caption className="sr-only">Problems in the file</caption>
          <thead>
            <tr>
              <th scope="col" className="py-1 pr-3">Row</th>
              <th scope="col" className="py-1 pr-3">Column</th>
              <th scope="col" className="py-1">Problem</th>
            </tr>
          </thead>
          <tbody>
            {problems.slice(0, 50).map((p, i) => (
              <tr key={i} className="border-t border-border">
                <td className="py-1 pr-3 tabular-nums">{p.row}</td>
                <td className="py-1 pr-3">{p.column ?? ""}</td>
                <td className="py-1">{p.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </form>
  );
}
