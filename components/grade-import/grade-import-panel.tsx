"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { guessLongMapping, type GradeImportMapping } from "@/lib/grade-import/mapping";
import { previewFile, type FilePreview } from "@/lib/grade-import/preview";
import type { GradeImportResult } from "@/lib/grade-import/service";
import { MappingFields, type DimensionChoice } from "./mapping-fields";

/**
 * Import grades in three steps: choose a file (its first rows are read in the
 * browser), map its columns, check (a dry run counts what would be created
 * and lists every problem), then import. A mapping can be saved per study.
 */

interface Problem {
  sheet: string | null;
  row: number;
  column: string | null;
  message: string;
}

type Outcome =
  | { phase: "idle" }
  | { phase: "busy"; what: string }
  | { phase: "checked" | "imported"; result: GradeImportResult }
  | { phase: "problems"; message: string; problems: Problem[]; total: number }
  | { phase: "failed"; message: string };

const n = (x: number) => x.toLocaleString("en");

/** A first guess: the long format when the header names its columns, else one rater column per unmapped column. */
function guess(preview: FilePreview, dimensions: DimensionChoice[]): GradeImportMapping {
  const header = preview.tables[0]?.header ?? [];
  const long = guessLongMapping(header);
  if (long) return long;
  const find = (re: RegExp) => header.find((h) => re.test(h));
  const item = find(/^(item|request|question|id)/i) ?? header[0] ?? "";
  const model = find(/^(model|system|llm)/i) ?? header[1] ?? "";
  const raters = header.filter((h) => /^(rater|reviewer|grader|evaluator)/i.test(h)).map((column) => ({ column }));
  const byName = (s: string) => dimensions.find((d) => d.label.toLowerCase() === s.toLowerCase() || d.value.split("/")[1] === s.toLowerCase())?.value ?? "";
  const sheets = Object.fromEntries(preview.tables.filter((t) => t.sheet !== null).map((t) => [t.sheet!, byName(t.sheet!)]));
  return { format: "wide", item, model, raters, sheets, itemRewrites: [], createItems: true };
}

async function send(studyId: string, file: File, mapping: GradeImportMapping, dryRun: boolean): Promise<Outcome> {
  const form = new FormData();
  form.set("file", file);
  form.set("mapping", JSON.stringify(mapping));
  let res: Response;
  try {
    res = await fetch(`/api/v1/studies/${studyId}/grade-imports${dryRun ? "?dryRun=1" : ""}`, { method: "POST", body: form, credentials: "same-origin" });
  } catch {
    return { phase: "failed", message: "The upload did not reach the server. Check the connection and try again." };
  }
  const body = (await res.json().catch(() => null)) as (GradeImportResult & { error?: string; details?: { errors?: Problem[]; total?: number } }) | null;
  if (res.ok && body) return { phase: dryRun ? "checked" : "imported", result: body };
  if (body?.details?.errors) return { phase: "problems", message: body.error ?? "The file has problems.", problems: body.details.errors, total: body.details.total ?? body.details.errors.length };
  return { phase: "failed", message: body?.error ?? `The server answered ${res.status}.` };
}

function Counts({ r, done }: { r: GradeImportResult; done: boolean }) {
  const cells: [string, string, string][] = [
    ["Items", n(r.items), `${n(r.new.items)} new`],
    ["Models", n(r.models), `${n(r.new.models)} new`],
    ["Raters", n(r.raters), `${n(r.new.raters)} new external graders`],
    ["Grades", n(r.grades), `${n(r.created)} ${done ? "created" : "to create"}, ${n(r.unchanged)} unchanged`],
  ];
  return (
    <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-4" aria-label="Counts">
      {cells.map(([label, value, sub]) => (
        <div key={label}>
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid={`count-${label.toLowerCase()}`}>
            {value}
          </dd>
          <dd className="text-xs text-muted-foreground">{sub}</dd>
        </div>
      ))}
    </dl>
  );
}

export function GradeImportPanel({ studyId, dimensions, saved }: { studyId: string; dimensions: DimensionChoice[]; saved: { name: string; mapping: GradeImportMapping }[] }) {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<FilePreview | null>(null);
  const [mapping, setMapping] = useState<GradeImportMapping | null>(null);
  const [outcome, setOutcome] = useState<Outcome>({ phase: "idle" });
  const [savedList, setSavedList] = useState(saved);
  const [saveName, setSaveName] = useState("");
  const [saveNote, setSaveNote] = useState("");

  // A changed mapping invalidates the last check.
  const changeMapping = (m: GradeImportMapping) => {
    setMapping(m);
    setOutcome((o) => (o.phase === "checked" || o.phase === "problems" ? { phase: "idle" } : o));
  };

  async function choose(f: File | null) {
    setFile(f);
    setPreview(null);
    setMapping(null);
    setOutcome({ phase: "idle" });
    if (!f) return;
    try {
      const p = await previewFile(f);
      setPreview(p);
      setMapping(guess(p, dimensions));
    } catch (e) {
      setOutcome({ phase: "failed", message: `The file cannot be read: ${e instanceof Error ? e.message : String(e)}` });
    }
  }

  async function run(dryRun: boolean) {
    if (!file || !mapping) return;
    setOutcome({ phase: "busy", what: dryRun ? "Checking…" : "Importing…" });
    setOutcome(await send(studyId, file, mapping, dryRun));
  }

  async function save() {
    if (!mapping || !saveName.trim()) return;
    const res = await fetch(`/api/v1/studies/${studyId}/grade-import-mappings`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: saveName.trim(), mapping }),
      credentials: "same-origin",
    });
    if (res.ok) {
      setSavedList((l) => [...l.filter((s) => s.name !== saveName.trim()), { name: saveName.trim(), mapping }].sort((a, b) => a.name.localeCompare(b.name)));
      setSaveNote(`Saved as “${saveName.trim()}”.`);
    } else setSaveNote(((await res.json().catch(() => null)) as { error?: string } | null)?.error ?? `Not saved (${res.status}).`);
  }

  const first = preview?.tables[0];
  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle className="text-base">1. The file</CardTitle>
          <CardDescription>CSV (UTF-8) or an Excel workbook (.xlsx). Long: one row per grade. Wide: one row per answer, one column per rater, one sheet per dimension.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          <Label htmlFor="grade-file">Grades file</Label>
          <input id="grade-file" type="file" accept=".csv,.xlsx,text/csv" onChange={(e) => void choose(e.target.files?.[0] ?? null)} className="text-sm" />
          {preview ? (
            <p className="text-sm text-muted-foreground" data-testid="detected">
              {preview.kind === "xlsx" ? `Workbook with ${preview.tables.length} sheet${preview.tables.length === 1 ? "" : "s"}: ${preview.tables.map((t) => t.sheet).join(", ")}` : "CSV file"};
              detected layout: {mapping?.format}.
            </p>
          ) : null}
        </CardContent>
      </Card>

      {preview && mapping && first ? (
        <Card>
          <CardHeader>
            <CardTitle className="text-base">2. Columns</CardTitle>
            <CardDescription>Dimensions and their levels come from the study&apos;s rubric; raters become pseudonymous external graders, without accounts.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            {savedList.length ? (
              <div className="flex items-end gap-2">
                <div className="flex flex-col gap-1">
                  <Label htmlFor="saved-mapping">Use a saved mapping</Label>
                  <select
                    id="saved-mapping"
                    className="h-9 rounded-md border border-border bg-background px-2 text-sm"
                    defaultValue=""
                    onChange={(e) => {
                      const s = savedList.find((x) => x.name === e.target.value);
                      if (s) changeMapping(s.mapping);
                    }}
                  >
                    <option value="">(choose)</option>
                    {savedList.map((s) => (
                      <option key={s.name} value={s.name}>
                        {s.name}
                      </option>
                    ))}
                  </select>
                </div>
              </div>
            ) : null}
            <MappingFields mapping={mapping} tables={preview.tables} dimensions={dimensions} onChange={changeMapping} />
            <div className="flex flex-wrap items-end gap-2">
              <div className="flex flex-col gap-1">
                <Label htmlFor="mapping-name">Save this mapping as</Label>
                <Input id="mapping-name" className="w-56" value={saveName} maxLength={100} onChange={(e) => setSaveName(e.target.value)} />
              </div>
              <Button type="button" variant="outline" onClick={() => void save()} disabled={!saveName.trim()}>
                Save mapping
              </Button>
              <span role="status" className="text-sm text-muted-foreground">
                {saveNote}
              </span>
            </div>
            <div className="flex flex-col gap-1">
              <p className="text-sm font-medium">First rows{first.sheet ? ` of ${first.sheet}` : ""}</p>
              <Table aria-label="First rows of the file">
                <TableHeader>
                  <TableRow>
                    {first.header.map((h, i) => (
                      <TableHead key={i}>{h}</TableHead>
                    ))}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {first.rows.slice(0, 5).map((r, i) => (
                    <TableRow key={i}>
                      {first.header.map((_, j) => (
                        <TableCell key={j} className="max-w-48 truncate">
                          {r[j] ?? ""}
                        </TableCell>
                      ))}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          </CardContent>
        </Card>
      ) : null}

      {preview && mapping ? (
        <Card>
          <CardHeader>
            <CardTitle className="text-base">3. Check and import</CardTitle>
            <CardDescription>The check reads the whole file and writes nothing. The import is all or nothing, and importing the same file again changes nothing.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            <div className="flex gap-2">
              <Button type="button" variant="outline" onClick={() => void run(true)} disabled={outcome.phase === "busy"}>
                Check
              </Button>
              <Button type="button" onClick={() => void run(false)} disabled={outcome.phase !== "checked"}>
                Import grades
              </Button>
            </div>
            <div role="status" aria-live="polite" className="flex flex-col gap-3 text-sm">
              {outcome.phase === "busy" ? <p>{outcome.what}</p> : null}
              {outcome.phase === "checked" ? (
                <>
                  <p>The file is ready to import. It would give:</p>
                  <Counts r={outcome.result} done={false} />
                </>
              ) : null}
              {outcome.phase === "imported" ? (
                <>
                  <p className="font-medium text-success">Imported.</p>
                  <Counts r={outcome.result} done />
                </>
              ) : null}
              {outcome.phase === "failed" ? <p className="text-destructive">{outcome.message}</p> : null}
              {outcome.phase === "problems" ? (
                <>
                  <p className="text-destructive">{outcome.message}</p>
                  <Table aria-label="Problems">
                    <TableHeader>
                      <TableRow>
                        <TableHead>Sheet</TableHead>
                        <TableHead>Row</TableHead>
                        <TableHead>Column</TableHead>
                        <TableHead>Problem</TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {outcome.problems.slice(0, 200).map((p, i) => (
                        <TableRow key={i}>
                          <TableCell>{p.sheet ?? "—"}</TableCell>
                          <TableCell className="tabular-nums">{p.row}</TableCell>
                          <TableCell>{p.column ?? "—"}</TableCell>
                          <TableCell>{p.message}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                  {outcome.total > 200 ? <p className="text-muted-foreground">…and {n(outcome.total - 200)} more.</p> : null}
                </>
              ) : null}
            </div>
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
