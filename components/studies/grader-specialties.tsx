"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { apiRequest } from "./api-client";

/** "Ophthalmology, Anesthesia" as the list the API takes. */
export function parseSpecialtyList(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A grader's specialties in this study, with an inline editor (PATCH .../graders/{userId}). */
export function GraderSpecialtiesCell({ studyId, userId, name, specialties }: { studyId: string; userId: string; name: string; specialties: string[] }) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (!editing) {
    return (
      <div className="flex items-center gap-2">
        <span>{specialties.join(", ") || "—"}</span>
        <Button type="button" variant="ghost" size="sm" aria-label={`Edit ${name}'s specialties in this study`} onClick={() => setEditing(true)}>
          Edit
        </Button>
      </div>
    );
  }

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get("specialties") ?? "");
    setPending(true);
    const result = await apiRequest("PATCH", `/api/v1/studies/${studyId}/graders/${userId}`, { specialties: parseSpecialtyList(text) });
    setPending(false);
    if (!result.ok) {
      setError(Object.values(result.fieldErrors)[0] ?? result.error);
      return;
    }
    setError(null);
    setEditing(false);
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} aria-label={`${name}'s specialties in this study`} className="flex flex-col gap-1">
      <div className="flex items-center gap-2">
        <Input name="specialties" defaultValue={specialties.join(", ")} aria-label="Specialties, comma-separated" className="h-8 min-w-48" autoFocus />
        <Button type="submit" size="sm" disabled={pending}>
          {pending ? "Saving…" : "Save"}
        </Button>
        <Button type="button" variant="ghost" size="sm" disabled={pending} onClick={() => {
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
