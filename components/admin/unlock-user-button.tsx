"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiRequest } from "@/components/studies/api-client";
import { Button } from "@/components/ui/button";

/** Clears a user's sign-in throttling (POST /api/v1/users/{id}/unlock), for someone an attacker has slowed down. */
export function UnlockUserButton({ userId, email }: { userId: string; email: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        size="sm"
        variant="outline"
        disabled={busy}
        aria-label={`Unlock sign-in for ${email}`}
        onClick={async () => {
          setBusy(true);
          const r = await apiRequest<{ clearedFailures: number }>("POST", `/api/v1/users/${userId}/unlock`);
          setBusy(false);
          if (!r.ok) {
            setError(r.error);
            return;
          }
          setError(null);
          router.refresh();
        }}
      >
        {busy ? "Unlocking…" : "Unlock"}
      </Button>
      {error ? (
        <span role="alert" className="text-sm text-destructive">
          {error}
        </span>
      ) : null}
    </span>
  );
}
