"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { apiRequest } from "./api-client";
import { FormMessage } from "./form-field";

const ACTIONS = {
  DRAFT: [{ to: "OPEN", label: "Open study", help: "Graders can start once assignments are made." }],
  OPEN: [{ to: "CLOSED", label: "Close study", help: "Graders can no longer grade; you can reopen it later." }],
  CLOSED: [{ to: "OPEN", label: "Reopen study", help: "Graders can grade again. Reopening is recorded in the audit log." }],
} as const;

/** The status buttons of a study: only the transitions the API allows from its current status. */
export function StudyStatusActions({ studyId, status }: { studyId: string; status: keyof typeof ACTIONS }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function move(to: "OPEN" | "CLOSED") {
    setPending(true);
    setError(null);
    const result = await apiRequest("PATCH", `/api/v1/studies/${studyId}`, { status: to });
    setPending(false);
    if (!result.ok) {
      setError(result.error);
      return;
    }
    router.refresh();
  }

  return (
    <div className="flex flex-col gap-2">
      {ACTIONS[status].map((a) => (
        <div key={a.to} className="flex flex-col gap-1">
          <Button type="button" variant={a.to === "CLOSED" ? "outline" : "default"} disabled={pending} onClick={() => move(a.to)}>
            {pending ? "Saving…" : a.label}
          </Button>
          <p className="text-xs text-muted-foreground">{a.help}</p>
        </div>
      ))}
      <FormMessage error={error} />
    </div>
  );
}
