"use client";

import { useState } from "react";
import { apiRequest } from "@/components/studies/api-client";

/** The grader's own choice of a weekly e-mail of their open work (its unsubscribe link turns it off too). */
export function DigestToggle({ initial }: { initial: boolean }) {
  const [on, setOn] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function toggle(next: boolean) {
    setPending(true);
    const result = await apiRequest<{ weeklyDigest: boolean }>("PUT", "/api/v1/me/mail-settings", { weeklyDigest: next });
    setPending(false);
    if (result.ok) {
      setOn(result.data.weeklyDigest);
      setError(null);
    } else setError(result.error);
  }
  return (
    <div className="flex flex-col gap-1 text-sm">
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={on} disabled={pending} onChange={(e) => void toggle(e.target.checked)} className="size-4" />
        E-mail me a weekly summary of my open work
      </label>
      {error ? (
        <p role="alert" className="text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
