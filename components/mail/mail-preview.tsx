"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";

interface Template {
  kind: string;
  label: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * The lead reads each message before graders get it: fetched from
 * GET /api/v1/studies/{id}/mail-preview (sample people and counts, the
 * study's grader-facing title). The HTML version is shown in a sandboxed
 * frame, so its markup runs nothing on this page.
 */
export function MailPreview({ studyId }: { studyId: string }) {
  const [templates, setTemplates] = useState<Template[] | null>(null);
  const [kind, setKind] = useState<string>("");
  const [format, setFormat] = useState<"text" | "html">("text");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function load() {
    setPending(true);
    setError(null);
    const res = await fetch(`/api/v1/studies/${studyId}/mail-preview`, { credentials: "same-origin" }).catch(() => null);
    const body = (await res?.json().catch(() => null)) as { templates?: Template[]; error?: string } | null;
    setPending(false);
    if (!res?.ok || !body?.templates) return setError(body?.error ?? "The server could not be reached. Try again.");
    setTemplates(body.templates);
    setKind(body.templates[0]?.kind ?? "");
  }

  if (!templates) {
    return (
      <div className="flex flex-col gap-2">
        <Button type="button" variant="outline" className="self-start" disabled={pending} onClick={() => void load()}>
          {pending ? "Loading…" : "Preview the messages"}
        </Button>
        {error ? (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
      </div>
    );
  }
  const shown = templates.find((t) => t.kind === kind) ?? templates[0];
  return (
    <section aria-label="Message preview" className="flex flex-col gap-3" data-testid="mail-preview">
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor="mail-preview-kind" className="font-medium">
            Message
          </label>
          <select id="mail-preview-kind" className="h-9 rounded-md border bg-background px-2 text-sm" value={shown.kind} onChange={(e) => setKind(e.target.value)}>
            {templates.map((t) => (
              <option key={t.kind} value={t.kind}>
                {t.label}
              </option>
            ))}
          </select>
        </div>
        <div role="group" aria-label="Version" className="flex gap-1">
          <Button type="button" size="sm" variant={format === "text" ? "default" : "outline"} aria-pressed={format === "text"} onClick={() => setFormat("text")}>
            Plain text
          </Button>
          <Button type="button" size="sm" variant={format === "html" ? "default" : "outline"} aria-pressed={format === "html"} onClick={() => setFormat("html")}>
            HTML
          </Button>
        </div>
      </div>
      <p className="text-sm">
        <span className="font-medium">Subject:</span> <span data-testid="mail-preview-subject">{shown.subject}</span>
      </p>
      {format === "text" ? (
        <pre data-testid="mail-preview-text" className="whitespace-pre-wrap rounded-md border bg-muted p-3 text-sm">
          {shown.text}
        </pre>
      ) : (
        <iframe title={`${shown.label}, HTML version`} sandbox="" srcDoc={shown.html} className="h-72 w-full rounded-md border bg-white" />
      )}
      <p className="text-xs text-muted-foreground">Sample people, counts and links; the real messages name the grader and hold their own link.</p>
    </section>
  );
}
