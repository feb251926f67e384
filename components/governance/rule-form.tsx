"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiRequest } from "@/components/studies/api-client";
import { Button } from "@/components/ui/button";

/** The study's triage bands, as shares of a dimension's scale (audited when changed). */
export function RuleForm({ studyId, rule, isDefault }: { studyId: string; rule: { acceptAtMost: number; reviewAtMost: number }; isDefault: boolean }) {
  const router = useRouter();
  const [accept, setAccept] = useState(String(rule.acceptAtMost));
  const [review, setReview] = useState(String(rule.reviewAtMost));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (body: unknown) => {
    setBusy(true);
    const r = await apiRequest("PUT", `/api/v1/studies/${studyId}/triage`, body);
    setBusy(false);
    if (!r.ok) return setError(r.fieldErrors["rule.reviewAtMost"] ?? r.fieldErrors["rule.acceptAtMost"] ?? r.error);
    setError(null);
    router.refresh();
  };
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        void save({ rule: { acceptAtMost: Number(accept), reviewAtMost: Number(review) } });
      }}
    >
      <label className="flex flex-col gap-1 text-sm">
        Accept when drift is at most
        <input className="h-8 w-24 rounded-md border border-border bg-background px-2" type="number" min={0} max={1} step={0.05} value={accept} onChange={(e) => setAccept(e.target.value)} />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Reject when drift is above
        <input className="h-8 w-24 rounded-md border border-border bg-background px-2" type="number" min={0} max={1} step={0.05} value={review} onChange={(e) => setReview(e.target.value)} />
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
