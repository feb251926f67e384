"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiRequest } from "@/components/studies/api-client";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { DESIGN_LABEL, type AssignmentDesign } from "@/lib/studies/assignment-design";
import type { AssignmentRunSummary } from "@/lib/assignment/service";

/** "Assign graders": runs the incremental, seeded assignment and shows what it did. */
export function AssignPanel({
  studyId,
  open,
  matchSpecialty,
  seed,
  design,
  assigned,
}: {
  studyId: string;
  open: boolean;
  matchSpecialty: boolean;
  seed: string | null;
  design: AssignmentDesign;
  /** Whether any work is assigned yet: the design is normally chosen once, before that. */
  assigned: boolean;
}) {
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
          design: data.get("design") as AssignmentDesign,
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
      <fieldset className="flex flex-col gap-1 text-sm">
        <legend className="mb-1 font-medium">Design</legend>
        {(["LOAD_BALANCED", "ONE_MODEL_PER_QUESTION"] as const).map((d) => (
          <label key={d} className="flex items-start gap-2">
            <input type="radio" name="design" value={d} defaultChecked={design === d} className="mt-1" />
            <span>
              {DESIGN_LABEL[d]}
              {d === "ONE_MODEL_PER_QUESTION" ? (
                <span className="block text-xs text-muted-foreground">
                  Two sources&apos; answers to one patient side by side can give the source away (a short reply next to a long one). Needs at least k x
                  models active graders.
                </span>
              ) : null}
            </span>
          </label>
        ))}
        {assigned ? <p className="text-xs text-muted-foreground">Work is already assigned: changing the design applies to new work only, and is refused if it would break it.</p> : null}
      </fieldset>
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
          Seed <code className="font-mono">{summary.seed}</code>, {DESIGN_LABEL[summary.design].split(":")[0]}: {summary.created} new assignment{summary.created === 1 ? "" : "s"} over {summary.completeSets} complete
          sets{summary.reassigned ? `, ${summary.reassigned} moved from graders who left` : ""}
          {summary.setsShortOfGraders ? `; ${summary.setsShortOfGraders} sets lack eligible graders` : ""}.
        </p>
      ) : null}
    </form>
  );
}
