"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { apiRequest } from "@/components/studies/api-client";

/** Excludes a grader from the analysis (asks why) or brings them back: PUT/DELETE /grader-quality/exclusions/{userId}. */
export function ExclusionButton({ studyId, graderId, name, excluded }: { studyId: string; graderId: string; name: string; excluded: boolean }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const url = `/api/v1/studies/${studyId}/grader-quality/exclusions/${graderId}`;
  const run = async (method: "PUT" | "DELETE") => {
    setBusy(true);
    setError(null);
    const r = await apiRequest(method, url, method === "PUT" ? { reason } : undefined);
    setBusy(false);
    if (!r.ok) return setError(r.fieldErrors.reason ?? r.error);
    setOpen(false);
    setReason("");
    router.refresh();
  };
  if (excluded)
    return (
      <Button type="button" size="sm" variant="outline" disabled={busy} onClick={() => run("DELETE")}>
        Include <span className="sr-only">{name} in the analysis</span> again
      </Button>
    );
  if (!open)
    return (
      <Button type="button" size="sm" variant="outline" onClick={() => setOpen(true)}>
        Exclude<span className="sr-only"> {name} from the analysis</span>
      </Button>
    );
  return (
    <form
      className="flex min-w-56 flex-col gap-1"
      onSubmit={(e) => {
        e.preventDefault();
        void run("PUT");
      }}
    >
      <label htmlFor={id} className="text-xs">
        Why exclude {name}? (kept in the audit log)
      </label>
      <input id={id} value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={2000} className="rounded border border-input px-2 py-1 text-sm" aria-describedby={error ? `${id}-error` : undefined} />
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-xs text-destructive">
          {error}
        </p>
      ) : null}
      <div className="flex gap-1">
        <Button type="submit" size="sm" disabled={busy || !reason.trim()}>
          Confirm exclusion
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
