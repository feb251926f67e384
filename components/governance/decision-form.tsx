"use client";

import { NoteDecisionForm } from "@/components/review/note-decision-form";
import type { SetDecision } from "@/lib/governance/contract";

const OPTIONS = [
  { value: "ACCEPTED", label: "Accept" },
  { value: "REJECTED", label: "Reject" },
] as const;

/** The lead's decision on one triaged set: accept or reject, with the note that says why (required, audited). */
export function DecisionForm({ studyId, setId, label, current }: { studyId: string; setId: string; label: string; current: Pick<SetDecision, "decision" | "note"> | null }) {
  return (
    <NoteDecisionForm<SetDecision["decision"]>
      id={`decision-${setId}`}
      subject={{ choice: `Decision on ${label}`, note: `Note on ${label}` }}
      options={OPTIONS}
      initial={current?.decision ?? "ACCEPTED"}
      note={current?.note ?? ""}
      notePlaceholder="Why (required)"
      noteMaxLength={2000}
      submitLabel="Save decision"
      request={(decision, note) => ({ method: "PUT", url: `/api/v1/studies/${studyId}/triage/${setId}`, body: { decision, note } })}
    />
  );
}
