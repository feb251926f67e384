"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiRequest } from "@/components/studies/api-client";
import { Button } from "@/components/ui/button";
import type { TriageRule } from "@/lib/governance/contract";

const inputClass = "h-8 w-24 rounded-md border border-border bg-background px-2";
/** An empty count field is "never" (null). */
const count = (text: string) => (text.trim() === "" ? null : Number(text));

/** The study's triage rule: drift bands as shares of a dimension's scale, and how many contradiction flags escalate (audited when changed). */
export function RuleForm({ studyId, rule, isDefault }: { studyId: string; rule: TriageRule; isDefault: boolean }) {
  const router = useRouter();
  const [accept, setAccept] = useState(String(rule.acceptAtMost));
  const [review, setReview] = useState(String(rule.reviewAtMost));
  const [reviewFlags, setReviewFlags] = useState(rule.reviewAtFlags === null ? "" : String(rule.reviewAtFlags));
  const [rejectFlags, setRejectFlags] = useState(rule.rejectAtFlags === null ? "" : String(rule.rejectAtFlags));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (body: unknown) => {
    setBusy(true);
    const r = await apiRequest("PUT", `/api/v1/studies/${studyId}/triage`, body);
    setBusy(false);
    if (!r.ok) {
      const f = r.fieldErrors;
      return setError(f["rule.reviewAtMost"] ?? f["rule.acceptAtMost"] ?? f["rule.rejectAtFlags"] ?? f["rule.reviewAtFlags"] ?? r.error);
    }
    setError(null);
    router.refresh();
  };
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        void save({ rule: { acceptAtMost: Number(accept), reviewAtMost: Number(review), reviewAtFlags: count(reviewFlags), rejectAtFlags: count(rejectFlags) } });
      }}
    >
      <label className="flex flex-col gap-1 text-sm">
        Accept when drift is at most
        <input className={inputClass} type="number" min={0} max={1} step={0.05} value={accept} onChange={(e) => setAccept(e.target.value)} />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Reject when drift is above
        <input className={inputClass} type="number" min={0} max={1} step={0.05} value={review} onChange={(e) => setReview(e.target.value)} />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Review from this many contradiction flags
        <input className={inputClass} type="number" min={1} max={100} step={1} placeholder="never" value={reviewFlags} onChange={(e) => setReviewFlags(e.target.value)} />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Reject from this many contradiction flags
        <input className={inputClass} type="number" min={1} max={100} step={1} placeholder="never" value={rejectFlags} onChange={(e) => setRejectFlags(e.target.value)} />
      </label>
      <Button size="sm" type="submit" disabled={busy}>
        Save rule
      </Button>
      {!isDefault ? (
        <Button size="sm" variant="outline" type="button" disabled={busy} onClick={() => void save({ rule: null })}>
          Back to the defaults
        </Button>
      ) : null}
      {error ? (
        <span role="alert" className="text-sm text-destructive">
          {error}
        </span>
      ) : null}
    </form>
  );
}
