"use client";

import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { apiRequest } from "@/components/studies/api-client";
import { Button } from "@/components/ui/button";

/**
 * A lead's decision on one thing with the note that says why (a potential-harm
 * flag's review, a triaged set's acceptance or rejection): a choice, a note,
 * one save to the API, the page refreshed. The server checks and audits it;
 * its 422 on the note is shown under the form.
 */
export function NoteDecisionForm<T extends string>({
  id,
  subject,
  options,
  initial,
  note: initialNote,
  notePlaceholder,
  noteMaxLength,
  submitLabel,
  request,
  children,
}: {
  /** Prefix of the controls' ids, unique on the page. */
  id: string;
  /** What is decided, for the screen-reader labels ("Decision on Q1, Model A"). */
  subject: { choice: string; note: string };
  options: readonly { value: T; label: string }[];
  initial: T;
  note: string;
  notePlaceholder: string;
  noteMaxLength: number;
  submitLabel: string;
  request: (choice: T, note: string) => { method: "PUT" | "PATCH"; url: string; body: unknown };
  /** Shown above the controls (the current state). */
  children?: ReactNode;
}) {
  const router = useRouter();
  const [choice, setChoice] = useState<T>(initial);
  const [note, setNote] = useState(initialNote);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="flex min-w-64 flex-col gap-1"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        const { method, url, body } = request(choice, note);
        const r = await apiRequest(method, url, body);
        setBusy(false);
        if (!r.ok) return setError(r.fieldErrors.note ?? r.error);
        setError(null);
        router.refresh();
      }}
    >
      {children}
      <label className="sr-only" htmlFor={`${id}-choice`}>
        {subject.choice}
      </label>
      <select id={`${id}-choice`} className="h-8 rounded-md border border-border bg-background px-2 text-sm" value={choice} onChange={(e) => setChoice(e.target.value as T)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <label className="sr-only" htmlFor={`${id}-note`}>
        {subject.note}
      </label>
      <textarea
        id={`${id}-note`}
        className="min-h-14 rounded-md border border-border bg-background px-2 py-1 text-sm"
        placeholder={notePlaceholder}
        maxLength={noteMaxLength}
        value={note}
        onChange={(e) => setNote(e.target.value)}
      />
      <Button size="sm" variant="outline" type="submit" disabled={busy} className="self-start">
        {submitLabel}
      </Button>
      {error ? (
        <span role="alert" className="text-xs text-destructive">
          {error}
        </span>
      ) : null}
    </form>
  );
}
