"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { apiRequest } from "@/components/studies/api-client";
import { describedBy, Field, FormMessage, textareaClass } from "@/components/studies/form-field";
import { MULTIPLICITY } from "@/lib/protocol/contract-values";

export interface ProtocolView {
  frozen: boolean;
  frozenAt: string | null;
  frozenBy: string | null;
  sha256: string | null;
  amendments: { id: string; at: string; by: string; fields: string[]; reason: string }[];
}

const MULTIPLICITY_LABELS: Record<(typeof MULTIPLICITY)[number], string> = {
  holm: "Holm",
  bonferroni: "Bonferroni",
  hochberg: "Hochberg",
  BH: "Benjamini-Hochberg (false discovery rate)",
  none: "None",
};

/** The study's protocol: the freeze form before the first assignment, then what was frozen and its amendments. */
export function ProtocolPanel({ studyId, state, canFreeze }: { studyId: string; state: ProtocolView; canFreeze: boolean }) {
  const router = useRouter();
  const [seed, setSeed] = useState("");
  const [outcome, setOutcome] = useState("");
  const [statistics, setStatistics] = useState("");
  const [multiplicity, setMultiplicity] = useState<(typeof MULTIPLICITY)[number]>("holm");
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  if (state.frozen) {
    return (
      <section aria-labelledby="protocol-heading" className="flex max-w-3xl flex-col gap-3">
        <h2 id="protocol-heading" className="text-lg font-semibold">
          Protocol
        </h2>
        <p className="text-sm">
          Frozen on {new Date(state.frozenAt!).toUTCString()} by {state.frozenBy}. SHA-256 of its canonical JSON:{" "}
          <code className="break-all rounded bg-muted px-1 font-mono text-xs" data-testid="protocol-sha256">
            {state.sha256}
          </code>
        </p>
        <p className="text-sm">
          <a className="underline underline-offset-2" href={`/api/v1/studies/${studyId}/protocol?download=1`}>
            Download the frozen protocol (JSON)
          </a>
        </p>
        {state.amendments.length ? (
          <table className="text-sm">
            <caption className="text-left font-medium">Amendments</caption>
            <thead>
              <tr>
                <th scope="col" className="pr-4 text-left">Date</th>
                <th scope="col" className="pr-4 text-left">By</th>
                <th scope="col" className="pr-4 text-left">Settings</th>
                <th scope="col" className="text-left">Reason</th>
              </tr>
            </thead>
            <tbody>
              {state.amendments.map((a) => (
                <tr key={a.id}>
                  <td className="pr-4">{new Date(a.at).toUTCString()}</td>
                  <td className="pr-4">{a.by}</td>
                  <td className="pr-4">{a.fields.join(", ")}</td>
                  <td>{a.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="text-sm text-muted-foreground">No amendment so far.</p>
        )}
      </section>
    );
  }

  async function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    const result = await apiRequest("POST", `/api/v1/studies/${studyId}/protocol`, {
      assignmentSeed: seed.trim(),
      plannedAnalyses: { primaryOutcome: outcome.trim(), statistics: statistics.split("\n").map((l) => l.trim()).filter(Boolean), multiplicity },
    });
    setPending(false);
    if (!result.ok) {
      setError(result.error);
      setFieldErrors(result.fieldErrors);
      return;
    }
    router.refresh();
  }

  const err = (k: string) => fieldErrors[k];
  return (
    <section aria-labelledby="protocol-heading" className="flex max-w-3xl flex-col gap-3">
      <h2 id="protocol-heading" className="text-lg font-semibold">
        Protocol
      </h2>
      {canFreeze ? (
        <form onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Freeze the protocol">
          <p className="text-sm text-muted-foreground">
            Freeze what you plan before the first assignment: the rubrics and design above, the assignment seed and the planned analyses are stored with a SHA-256 of their canonical JSON. Later
            changes need a reason and are listed as amendments in the report.
          </p>
          <FormMessage error={error} success={null} />
          <Field id="protocol-seed" label="Assignment seed" hint="The assignment will use it; anyone can replay the deal with it." error={err("assignmentSeed")}>
            <Input id="protocol-seed" value={seed} onChange={(e) => setSeed(e.target.value)} aria-describedby={describedBy("protocol-seed", "hint", err("assignmentSeed"))} />
          </Field>
          <Field id="protocol-outcome" label="Primary outcome" hint="In words, e.g. the mean total per model." error={err("plannedAnalyses.primaryOutcome")}>
            <Input id="protocol-outcome" value={outcome} onChange={(e) => setOutcome(e.target.value)} aria-describedby={describedBy("protocol-outcome", "hint", err("plannedAnalyses.primaryOutcome"))} />
          </Field>
          <Field id="protocol-statistics" label="Statistics and conventions" hint="One per line, e.g. Cliff's delta with bootstrap 95% CI." error={err("plannedAnalyses.statistics")}>
            <textarea
              id="protocol-statistics"
              className={textareaClass}
              rows={4}
              value={statistics}
              onChange={(e) => setStatistics(e.target.value)}
              aria-describedby={describedBy("protocol-statistics", "hint", err("plannedAnalyses.statistics"))}
            />
          </Field>
          <Field id="protocol-multiplicity" label="Correction for multiple comparisons" error={err("plannedAnalyses.multiplicity")}>
            <select
              id="protocol-multiplicity"
              className="h-9 w-fit rounded-md border border-border bg-background px-3 text-sm"
              value={multiplicity}
              onChange={(e) => setMultiplicity(e.target.value as (typeof MULTIPLICITY)[number])}
            >
              {MULTIPLICITY.map((m) => (
                <option key={m} value={m}>
                  {MULTIPLICITY_LABELS[m]}
                </option>
              ))}
            </select>
          </Field>
          <div>
            <Button type="submit" disabled={pending}>
              {pending ? "Freezing…" : "Freeze the protocol"}
            </Button>
          </div>
        </form>
      ) : (
        <p className="text-sm text-muted-foreground">Graders were assigned before a protocol was frozen: the report states that the analysis plan was not registered in advance.</p>
      )}
    </section>
  );
}
