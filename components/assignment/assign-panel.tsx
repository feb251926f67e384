"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiRequest } from "@/components/studies/api-client";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { AssignmentRunSummary } from "@/lib/assignment/service";

/** "Assign graders": runs the incremental, seeded assignment and shows what it did. */
export function AssignPanel({ studyId, open, matchSpecialty, seed }: { studyId: string; open: boolean; matchSpecialty: boolean; seed: string | null }) {
  const router = useRouter();
  const [summary, setSummary] = useState<AssignmentRunSummary | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="flex flex-col gap-3 rounded-lg border border-border p-4"
      onSubmit={async (e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const s = String(data.get("seed") ?? "").trim();
        setBusy(true);
        const r = await apiRequest<AssignmentRunSummary>("POST", `/api/v1/studies/${studyId}/assignments`, {
          ...(s ? { seed: s } : {}),
          matchSpecialty: data.get("matchSpecialty") === "on",
        });
        setBusy(false);
        if (!r.ok) {
          setError(r.error);
          return;
        }
        setError(null);
        setSummary(r.data);
        router.refresh();
      }}
    >
      <h2 className="font-semibold">Assign graders</h2>
      <p className="text-sm text-muted-foreground">
        Gives every complete answer set its primary graders, balancing the load; each grader gets their own random order. Running it again
        only adds new work (new questions or graders) and moves unsubmitted work away from deactivated graders; submitted work never moves.
      </p>
      <div className="flex flex-wrap items-end gap-4">
        <div className="flex flex-col gap-1">
          <Label htmlFor="seed">Seed (optional)</Label>
          <Input id="seed" name="seed" className="w-56" placeholder={seed ? `last: ${seed}` : "random"} maxLength={100} />
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="matchSpecialty" defaultChecked={matchSpecialty} /> Only graders of the item&apos;s specialty
        </label>
        <Button type="submit" disabled={!open || busy}>
          {busy ? "Assigning…" : "Assign graders"}
        </Button>
      </div>
      {!open ? <p className="text-sm text-warning">Open the study first (Overview tab).</p> : null}
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      {summary ? (
        <p role="status" className="text-sm">
          Seed <code className="font-mono">{summary.seed}</code>: {summary.created} new assignment{summary.created === 1 ? "" : "s"} over {summary.completeSets} complete
          sets{summary.reassigned ? `, ${summary.reassigned} moved from graders who left` : ""}
          {summary.setsShortOfGraders ? `; ${summary.setsShortOfGraders} sets lack eligible graders` : ""}.
        </p>
      ) : null}
    </form>
  );
}
