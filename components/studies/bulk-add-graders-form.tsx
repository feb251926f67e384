"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import type { GraderCandidate } from "@/lib/graders/candidates";

interface Added {
  line: number;
  email: string;
  accountCreated: boolean;
  reactivated: boolean;
  specialties: string[];
  initialPassword?: string;
  invitationId?: string;
}

interface NotAdded {
  line: number;
  email: string;
  message: string;
}

type Outcome = { kind: "added"; added: Added[]; notAdded: NotAdded[] } | { kind: "refused"; error: string; lines: string[] } | null;

/** Appends lines to the text, on a line of their own. */
const appendLines = (text: string, lines: string[]) => [text.replace(/\s+$/, ""), ...lines].filter(Boolean).join("\n") + "\n";

/**
 * Adds many graders at once: pasted lines (`email` or `email,name,specialties`),
 * an uploaded CSV of the same, and existing grader accounts picked from a list.
 * A bad line (its text, a duplicate, a grader already here) stops the whole
 * list; a line that cannot be added (no account and no name, or an account that
 * cannot be a grader) is listed apart while the others are added. New
 * accounts' generated passwords are shown here once.
 */
export function BulkAddGradersForm({ studyId, candidates }: { studyId: string; candidates: GraderCandidate[] }) {
  const router = useRouter();
  const id = useId();
  const [text, setText] = useState("");
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [filter, setFilter] = useState("");
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const shown = candidates.filter((c) => !filter.trim() || `${c.name} ${c.email} ${c.specialties.join(" ")}`.toLowerCase().includes(filter.trim().toLowerCase()));

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    setOutcome(null);
    let res: Response | null = null;
    try {
      res = await fetch(`/api/v1/studies/${studyId}/graders/bulk`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        credentials: "same-origin",
        body: JSON.stringify({ csv: text }),
      });
    } catch {
      /* below */
    }
    setPending(false);
    const payload = (await res?.json().catch(() => null)) as { added?: Added[]; notAdded?: NotAdded[]; error?: string; details?: { message?: string; path?: string }[] } | null;
    if (res?.ok && payload?.added) {
      const notAdded = payload.notAdded ?? [];
      setOutcome({ kind: "added", added: payload.added, notAdded });
      // What was not added stays in the box, to fix or ask about.
      setText(notAdded.map((n) => n.email).join("\n"));
      setPicked(new Set());
      router.refresh();
      return;
    }
    const lines = (payload?.details ?? []).map((d) => (d.path ? `${d.path}: ${d.message}` : String(d.message)));
    setOutcome({ kind: "refused", error: payload?.error ?? (res ? `The request failed (HTTP ${res.status}).` : "The server could not be reached."), lines });
  }

  return (
    <form className="flex flex-col gap-4" onSubmit={submit} aria-label="Add many graders">
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-lines`}>Graders, one per line</Label>
          <textarea
            id={`${id}-lines`}
            name="csv"
            rows={8}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-describedby={`${id}-lines-hint`}
            placeholder={"ana.ruiz@hospital.example,Ana Ruiz,Ophthalmology;Anesthesia\nexisting.grader@hospital.example"}
            className="rounded-md border border-border bg-background px-3 py-2 font-mono text-sm"
          />
          <p id={`${id}-lines-hint`} className="text-xs text-muted-foreground">
            <code>email</code> for an existing grader account, or <code>email,name,specialties</code> (specialties separated by <code>;</code>). A new email
            needs a name and gets a generated password, shown once. Specialties are the grader&apos;s in this study; none given: an existing grader starts with
            their account&apos;s own.
          </p>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-file`}>Or upload a CSV file (email,name,specialties)</Label>
            <input
              id={`${id}-file`}
              type="file"
              accept=".csv,text/csv,text/plain"
              className="text-sm file:mr-3 file:rounded-md file:border file:border-border file:bg-background file:px-3 file:py-1.5"
              onChange={async (e) => {
                const file = e.target.files?.[0];
                if (!file) return;
                setText(await file.text());
                e.target.value = "";
              }}
            />
          </div>
        </div>
        <fieldset className="flex min-w-0 flex-col gap-2 rounded-md border border-border p-3">
          <legend className="px-1 text-sm font-medium">Pick existing graders ({candidates.length} not in this study)</legend>
          {candidates.length === 0 ? (
            <p className="text-sm text-muted-foreground">Every grader account of this instance is already in this study.</p>
          ) : (
            <>
              <Label htmlFor={`${id}-filter`} className="sr-only">
                Filter graders
              </Label>
              <input
                id={`${id}-filter`}
                type="search"
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
                placeholder="Filter by name, email or specialty"
                className="h-9 rounded-md border border-border bg-background px-3 text-sm"
              />
              <ul className="max-h-48 overflow-y-auto text-sm" tabIndex={0} aria-label="Existing graders">
                {shown.map((c) => (
                  <li key={c.email}>
                    <label className="flex items-start gap-2 rounded px-1 py-1 hover:bg-muted">
                      <input
                        type="checkbox"
                        className="mt-1"
                        checked={picked.has(c.email)}
                        onChange={(e) => {
                          const next = new Set(picked);
                          if (e.target.checked) next.add(c.email);
                          else next.delete(c.email);
                          setPicked(next);
                        }}
                      />
                      <span>
                        {c.name} <span className="text-muted-foreground">{c.email}</span>
                        {c.specialties.length ? <span className="block text-xs text-muted-foreground">{c.specialties.join(", ")}</span> : null}
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
              <Button
                type="button"
                variant="outline"
                size="sm"
                disabled={picked.size === 0}
                onClick={() => {
                  setText(appendLines(text, [...picked]));
                  setPicked(new Set());
                }}
              >
                Add {picked.size || ""} picked to the list
              </Button>
            </>
          )}
        </fieldset>
      </div>
      <div>
        <Button type="submit" disabled={pending || !text.trim()}>
          {pending ? "Adding…" : "Add all graders"}
        </Button>
      </div>
      {outcome?.kind === "refused" ? (
        <div role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive">
          <p className="font-medium">{outcome.error}</p>
          {outcome.lines.length ? (
            <ul className="mt-1 list-disc pl-5">
              {outcome.lines.map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {outcome?.kind === "added" ? (
        <div role="status" className="rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-900">
          <p className="font-medium">
            Added {outcome.added.length} grader{outcome.added.length === 1 ? "" : "s"}.
            {outcome.added.some((a) => a.initialPassword)
              ? " Hand each new account its password securely: it is shown only now (e-mail is off on this server, so no invitation could be sent)."
              : ""}
            {outcome.added.some((a) => a.invitationId) ? " Each new account is e-mailed an invitation to choose its own password." : ""}
          </p>
          <ul className="mt-1 flex flex-col gap-0.5">
            {outcome.added.map((a) => (
              <li key={a.email}>
                {a.email}: {a.accountCreated ? "new account" : a.reactivated ? "back in the study" : "joined"}
                {a.specialties.length ? ` (${a.specialties.join(", ")})` : ""}
                {a.invitationId ? " (invited by e-mail)" : null}
                {a.initialPassword ? (
                  <>
                    {" "}
                    password <code className="rounded bg-background px-1 font-mono" data-testid="bulk-password">{a.initialPassword}</code>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
          {outcome.notAdded.length ? (
            <div className="mt-2 text-destructive">
              <p className="font-medium">
                Not added ({outcome.notAdded.length}): {outcome.notAdded[0].message}
              </p>
              <ul className="mt-1 list-disc pl-5">
                {outcome.notAdded.map((n) => (
                  <li key={`${n.line}-${n.email}`}>
                    line {n.line}: {n.email}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
