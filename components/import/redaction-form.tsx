"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { apiRequest } from "@/components/studies/api-client";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import type { RedactionResultBody } from "@/lib/import/contract";

const fieldClass = "h-9 max-w-md rounded-md border border-border bg-background px-2 text-sm";

/**
 * Takes a word that names a model (the import's scan lists them) out of the
 * study's answers before graders read them: a preview first, then the change,
 * which the audit log keeps. Answers already graded are never changed.
 */
export function RedactionForm({ studyId }: { studyId: string }) {
  const router = useRouter();
  const ids = { find: useId(), replace: useId() };
  const [find, setFind] = useState("");
  const [replace, setReplace] = useState("[redacted]");
  const [preview, setPreview] = useState<RedactionResultBody | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function send(dryRun: boolean) {
    setBusy(true);
    setDone(null);
    const r = await apiRequest<RedactionResultBody>("POST", `/api/v1/studies/${studyId}/redactions`, { find: find.trim(), replace, dryRun });
    setBusy(false);
    if (!r.ok) {
      setPreview(null);
      return setError(r.fieldErrors.find ?? r.fieldErrors.replace ?? r.error);
    }
    setError(null);
    if (dryRun) return setPreview(r.data);
    setPreview(null);
    setDone(`${r.data.answers} ${r.data.answers === 1 ? "answer" : "answers"} changed; the audit log records it.`);
    router.refresh();
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Redact a word from the answers</CardTitle>
        <CardDescription>
          Replace a model&apos;s name, its product or its database, as a whole word in any case, in every answer of the study, before graders read them.
          Answers already graded are never changed.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            void send(true);
          }}
        >
          <div className="flex flex-col gap-1">
            <Label htmlFor={ids.find}>Word or phrase to take out</Label>
            <input
              id={ids.find}
              className={fieldClass}
              value={find}
              maxLength={200}
              onChange={(e) => {
                setFind(e.target.value);
                setPreview(null);
              }}
            />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor={ids.replace}>Replace with</Label>
            <input
              id={ids.replace}
              className={fieldClass}
              value={replace}
              maxLength={200}
              onChange={(e) => {
                setReplace(e.target.value);
                setPreview(null);
              }}
            />
          </div>
          <div className="flex flex-wrap gap-3">
            <Button type="submit" variant="outline" disabled={busy || find.trim().length === 0}>
              Preview
            </Button>
            {preview && preview.answers > 0 ? (
              <Button type="button" disabled={busy} onClick={() => void send(false)}>
                Redact {preview.answers} {preview.answers === 1 ? "answer" : "answers"}
              </Button>
            ) : null}
          </div>
          <div aria-live="polite" className="flex flex-col gap-2 text-sm">
            {preview ? (
              preview.answers === 0 ? (
                <p>No answer contains “{find.trim()}” as a word.</p>
              ) : (
                <div data-testid="redaction-preview">
                  <p>
                    {preview.answers} {preview.answers === 1 ? "answer contains" : "answers contain"} it. For example:
                  </p>
                  <ul className="mt-1 list-disc pl-5 text-xs">
                    {preview.examples.map((e) => (
                      <li key={`${e.itemId}\u0000${e.model}\u0000${e.repetition}`}>
                        <span className="font-mono">{e.itemId}</span> × {e.model}, answer {e.repetition}: {e.before} → {e.after}
                      </li>
                    ))}
                  </ul>
                </div>
              )
            ) : null}
            {done ? <p role="status">{done}</p> : null}
            {error ? (
              <p role="alert" className="text-destructive">
                {error}
              </p>
            ) : null}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
