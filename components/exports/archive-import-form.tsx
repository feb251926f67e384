"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";

interface Problem {
  path?: string;
  message?: string;
}

/** Uploads a study archive (the `study` export of any Clingrade instance): it becomes a new study that you lead. */
export function ArchiveImportForm() {
  const inputId = useId();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<{ message: string; problems: Problem[] } | null>(null);
  const [created, setCreated] = useState<{ id: string; slug: string } | null>(null);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const file = new FormData(event.currentTarget).get("archive");
    if (!(file instanceof File) || file.size === 0) {
      setError({ message: "Choose a study archive (.json) first.", problems: [] });
      return;
    }
    setPending(true);
    setError(null);
    setCreated(null);
    try {
      const res = await fetch("/api/v1/study-archives", { method: "POST", headers: { "content-type": "application/json" }, body: file, credentials: "same-origin" });
      const payload = (await res.json().catch(() => null)) as { id?: string; slug?: string; error?: string; details?: unknown } | null;
      if (res.status === 201 && payload?.id) {
        setCreated({ id: payload.id, slug: payload.slug ?? "" });
      } else {
        const details = payload?.details as { problems?: Problem[] } | Problem[] | undefined;
        const problems = Array.isArray(details) ? details : (details?.problems ?? []);
        setError({ message: payload?.error ?? `The import failed (HTTP ${res.status}).`, problems: problems.slice(0, 20) });
      }
    } catch {
      setError({ message: "The server could not be reached. Check your connection and try again.", problems: [] });
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-3 text-sm">
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor={inputId} className="font-medium">
          Study archive (.json)
        </label>
        <input id={inputId} name="archive" type="file" accept="application/json,.json" className="text-sm" />
        <Button type="submit" size="sm" disabled={pending}>
          {pending ? "Importing…" : "Import as a new study"}
        </Button>
      </div>
      {created ? (
        <p role="status" className="rounded-md border border-green-200 bg-green-50 p-3 text-green-950">
          Imported as a new study ({created.slug}).{" "}
          <Link href={`/studies/${created.id}`} className="font-medium underline underline-offset-4">
            Open it
          </Link>
        </p>
      ) : null}
      {error ? (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-red-950">
          <p>{error.message}</p>
          {error.problems.length ? (
            <ul className="mt-2 list-disc pl-5">
              {error.problems.map((p, i) => (
                <li key={i}>
                  {p.path ? <code>{p.path}</code> : null} {p.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
