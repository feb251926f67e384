"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { apiRequest } from "@/components/studies/api-client";

/**
 * A grader's own deadline in this study, over the study's (PUT .../deadlines
 * with this grader only): their reminders count down to it.
 */
export function GraderDeadlineCell({ studyId, userId, name, deadline }: { studyId: string; userId: string; name: string; deadline: string | null }) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function save(day: string | null) {
    setPending(true);
    const result = await apiRequest("PUT", `/api/v1/studies/${studyId}/deadlines`, { graders: [{ userId, deadline: day }] });
    setPending(false);
    if (!result.ok) {
      setError(Object.values(result.fieldErrors)[0] ?? result.error);
      return;
    }
    setError(null);
    setEditing(false);
    router.refresh();
  }

  if (!editing) {
    return (
      <div className="flex items-center gap-2 whitespace-nowrap">
        <span>{deadline ?? "the study's"}</span>
        <Button type="button" variant="ghost" size="sm" aria-label={`Edit ${name}'s own deadline`} onClick={() => setEditing(true)}>
          Edit
        </Button>
        {deadline ? (
          <Button type="button" variant="ghost" size="sm" disabled={pending} aria-label={`Clear ${name}'s own deadline`} onClick={() => void save(null)}>
            Clear
          </Button>
        ) : null}
        {error ? (
          <p role="alert" className="text-xs text-destructive">
            {error}
          </p>
        ) : null}
      </div>
    );
  }

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const day = String(new FormData(event.currentTarget).get("deadline") ?? "");
        void save(day || null);
      }}
      aria-label={`${name}'s own deadline in this study`}
      className="flex flex-col gap-1"
    >
      <div className="flex items-center gap-2">
        <Input name="deadline" type="date" defaultValue={deadline ?? ""} aria-label={`${name}'s own deadline`} className="h-8" autoFocus />
        <Button type="submit" size="sm" disabled={pending}>
          {pending ? "Saving…" : "Save"}
        </Button>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          disabled={pending}
          onClick={() => {
            setEditing(false);
            setError(null);
          }}
        >
          Cancel
        </Button>
      </div>
      {error ? (
        <p role="alert" className="text-xs text-destructive">
          {error}
        </p>
      ) : null}
    </form>
  );
}
