"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";

interface Problem {
  path?: string;
  message?: string;
}

/** `G1 = ana@example.org` (or `G1: <user id>`), one per line. */
const MAP_LINE = /^\s*([^:=\s]+)\s*[:=]\s*(\S+)\s*$/;

/**
 * Uploads a study archive (the `study` export of any Clingrade instance): it
 * becomes a new study that you lead. An admin may also bind the archive's
 * graders to existing grader accounts (the server refuses it to anyone else).
 */
export function ArchiveImportForm({ canMap = false }: { canMap?: boolean }) {
  const inputId = useId();
  const mapId = useId();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<{ message: string; problems: Problem[] } | null>(null);
  const [created, setCreated] = useState<{ id: string; slug: string } | null>(null);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const file = data.get("archive");
    if (!(file instanceof File) || file.size === 0) {
      setError({ message: "Choose a study archive (.json) first.", problems: [] });
      return;
    }
    const lines = String(data.get("map") ?? "")
      .split("\n")
      .filter((l) => l.trim() !== "");
    const wrong = lines.filter((l) => !MAP_LINE.test(l));
    if (wrong.length) {
      setError({ message: `Write each binding as "G1 = email": ${wrong.map((l) => `"${l.trim()}"`).join(", ")}.`, problems: [] });
      return;
    }
    const query = new URLSearchParams(
      lines.map((l) => {
        const [, grader, account] = MAP_LINE.exec(l)!;
        return ["map", `${grader}:${account}`];
      }),
    );
    setPending(true);
    setError(null);
    setCreated(null);
    try {
      const url = `/api/v1/study-archives${lines.length ? `?${query}` : ""}`;
      const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: file, credentials: "same-origin" });
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
      {canMap ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={mapId} className="font-medium">
            Bind graders to existing accounts (admins only, optional)
          </label>
          <textarea
            id={mapId}
            name="map"
            rows={3}
            placeholder="G1 = ana@example.org"
            className="max-w-md rounded-md border border-input bg-transparent px-3 py-2 font-mono text-sm"
            aria-describedby={`${mapId}-hint`}
          />
          <p id={`${mapId}-hint`} className="text-muted-foreground">
            One per line: the archive&apos;s grader id (G1, G2, ...) and a grader account&apos;s email. Those graders&apos; work is then theirs; the audit log
            records each binding. Everyone else becomes a new, deactivated, pseudonymous grader.
          </p>
        </div>
      ) : null}
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
