"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiRequest } from "@/components/studies/api-client";
import { Button } from "@/components/ui/button";

/** The lead's decision on one triaged set: accept or reject, with the note that says why (required, audited). */
export function DecisionForm({ studyId, setId, label, current }: { studyId: string; setId: string; label: string; current: { decision: "ACCEPTED" | "REJECTED"; note: string } | null }) {
  const router = useRouter();
  const [decision, setDecision] = useState<"ACCEPTED" | "REJECTED">(current?.decision ?? "ACCEPTED");
  const [note, setNote] = useState(current?.note ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `decision-${setId}`;
  return (
    <form
      className="flex min-w-64 flex-col gap-1"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        const r = await apiRequest("PUT", `/api/v1/studies/${studyId}/triage/${setId}`, { decision, note });
        setBusy(false);
        if (!r.ok) return setError(r.fieldErrors.note ?? r.error);
        setError(null);
        router.refresh();
      }}
    >
      <label className="sr-only" htmlFor={`${id}-decision`}>
        Decision on {label}
      </label>
      <select id={`${id}-decision`} className="h-8 rounded-md border border-border bg-background px-2 text-sm" value={decision} onChange={(e) => setDecision(e.target.value as "ACCEPTED" | "REJECTED")}>
        <option value="ACCEPTED">Accept</option>
        <option value="REJECTED">Reject</option>
      </select>
      <label className="sr-only" htmlFor={`${id}-note`}>
        Note on {label}
      </label>
      <textarea
        id={`${id}-note`}
        className="min-h-14 rounded-md border border-border bg-background px-2 py-1 text-sm"
        placeholder="Why (required)"
        maxLength={2000}
        value={note}
        onChange={(e) => setNote(e.target.value)}
      />
      <Button size="sm" variant="outline" type="submit" disabled={busy} className="self-start">
        Save decision
      </Button>
      {error ? (
        <span role="alert" className="text-xs text-destructive">
          {error}
        </span>
      ) : null}
    </form>
  );
}
