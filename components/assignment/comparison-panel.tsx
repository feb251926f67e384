"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiRequest } from "@/components/studies/api-client";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { ComparisonAssignmentRunSummary } from "@/lib/pairwise/assign-service";
import type { ComparisonPlanSummary } from "@/lib/pairwise/plan-service";

type Kind = "all_pairs" | "against_reference" | "balanced";

/**
 * A pairwise study's "Plan and assign comparisons": plans which pairs of answers are compared
 * (POST .../comparisons; replanning is refused once work is dealt, and then skipped here) and deals
 * them to k graders each (POST .../comparison-assignments), incrementally.
 */
export function ComparisonPanel({ studyId, open, models, plan }: { studyId: string; open: boolean; models: string[]; plan: ComparisonPlanSummary | null }) {
  const router = useRouter();
  const [kind, setKind] = useState<Kind>(plan?.design?.kind ?? "all_pairs");
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="flex flex-col gap-3 rounded-lg border border-border p-4"
      aria-label="Plan and assign comparisons"
      onSubmit={async (e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const seed = String(data.get("seed") ?? "").trim();
        const design = kind === "all_pairs" ? { kind } : kind === "against_reference" ? { kind, reference: String(data.get("reference") ?? "") } : { kind, perQuestion: Number(data.get("perQuestion") ?? 1) };
        setBusy(true);
        setError(null);
        let planned: ComparisonPlanSummary | null = null;
        if (!plan?.comparisons || kind !== plan.design?.kind || seed) {
          const p = await apiRequest<ComparisonPlanSummary>("POST", `/api/v1/studies/${studyId}/comparisons`, { design, ...(seed ? { seed } : {}) });
          // Once work is dealt the plan stays: dealing again only adds what is missing.
          if (!p.ok && p.status !== 409) {
            setBusy(false);
            setError(p.error);
            return;
          }
          if (p.ok) planned = p.data;
        }
        const d = await apiRequest<ComparisonAssignmentRunSummary>("POST", `/api/v1/studies/${studyId}/comparison-assignments`, seed ? { seed } : {});
        setBusy(false);
        if (!d.ok) {
          setError(d.error);
          return;
        }
        setStatus(`${planned ? `${planned.comparisons} comparisons planned over ${planned.questions} questions; ` : ""}${d.data.created} new assignment${d.data.created === 1 ? "" : "s"} of ${d.data.comparisons} comparisons${d.data.comparisonsShortOfGraders ? `; ${d.data.comparisonsShortOfGraders} lack graders` : ""}.`);
        router.refresh();
      }}
    >
      <h2 className="font-semibold">Plan and assign comparisons</h2>
      <p className="text-sm text-muted-foreground">
        Chooses which two answers to each question are compared, which is shown on the left (a seeded coin), and deals every comparison to k graders. Running it again
        only adds new work; the plan cannot change once graders have work.
      </p>
      <fieldset className="flex flex-col gap-1 text-sm">
        <legend className="mb-1 font-medium">Pairs per question</legend>
        {(
          [
            ["all_pairs", "Every pair of models"],
            ["against_reference", "Each model against a reference model"],
            ["balanced", "A balanced subset of pairs"],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="flex items-center gap-2">
            <input type="radio" name="kind" value={value} checked={kind === value} onChange={() => setKind(value)} />
            {label}
          </label>
        ))}
        {kind === "against_reference" ? (
          <label className="mt-1 flex items-center gap-2">
            Reference model
            <select name="reference" className="h-8 rounded-md border border-border bg-background px-2">
              {models.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </label>
        ) : null}
        {kind === "balanced" ? (
          <label className="mt-1 flex items-center gap-2">
            Comparisons per question
            <Input name="perQuestion" type="number" min={1} max={45} defaultValue={1} className="w-24" />
          </label>
        ) : null}
      </fieldset>
      <div className="flex flex-wrap items-end gap-4">
        <div className="flex flex-col gap-1">
          <Label htmlFor="comparison-seed">Seed (optional)</Label>
          <Input id="comparison-seed" name="seed" className="w-56" placeholder={plan?.seed ? `last: ${plan.seed}` : "random"} maxLength={100} />
        </div>
        <Button type="submit" disabled={!open || busy}>
          {busy ? "Assigning…" : "Plan and assign"}
        </Button>
      </div>
      {!open ? <p className="text-sm text-warning">Open the study first (Overview tab).</p> : null}
      {plan?.comparisons ? (
        <p className="text-sm text-muted-foreground" data-testid="comparison-plan">
          {plan.comparisons} comparisons over {plan.questions} questions: {plan.byStatus.AGREED + plan.byStatus.ADJUDICATED} final, {plan.byStatus.AWAITING_ADJUDICATION} awaiting a third grader.
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      {status ? (
        <p role="status" className="text-sm">
          {status}
        </p>
      ) : null}
    </form>
  );
}
