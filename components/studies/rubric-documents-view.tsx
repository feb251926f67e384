import type { RubricDimension, RubricDocument } from "@/lib/rubrics/document";
import { decisionRequired } from "@/lib/rubrics/harm-line";

const SCOPE: Record<RubricDimension["scope"], string> = { first_answer: "first answer", each_answer: "each answer", set: "whole set" };

function levels(d: RubricDimension): string {
  if (d.scale.kind === "criteria") return "criteria from each question";
  const ls = (d.scale.levels ?? []).map((l) => (d.scale.kind === "ordinal" ? `${l.value} ${l.label}` : l.label)).join("; ");
  return d.scale.allowNA ? `${ls}; or N/A` : ls;
}

function harmLine(d: RubricDimension): string | null {
  const at = d.harmAtOrAbove ?? d.harmAtOrBelow;
  if (at === undefined) return null;
  const label = d.scale.levels?.find((l) => l.value === at)?.label;
  const dir = d.harmAtOrAbove !== undefined ? "at or above" : "at or below";
  return `harm line ${dir} ${at}${label ? ` (${label})` : ""}${decisionRequired(d) ? ", decision required" : ", flag offered"}`;
}

/**
 * The study's rubric documents as graders get them, read-only: what the
 * settings show once grading has started (the documents no longer change).
 */
export function RubricDocumentsView({ docs }: { docs: readonly RubricDocument[] }) {
  return (
    <section aria-label="The study's rubric documents" className="flex flex-col gap-2">
      {docs.map((doc) => (
        <details key={doc.key} className="rounded-md border border-border px-3 py-2 text-sm">
          <summary className="cursor-pointer font-medium">
            {doc.name} <span className="font-normal text-muted-foreground">(key {doc.key}, version {doc.version})</span>
          </summary>
          <ul className="mt-2 flex flex-col gap-1.5">
            {doc.dimensions.map((d) => (
              <li key={d.key}>
                <span className="font-medium">{d.name}</span> <span className="text-muted-foreground">({d.scale.kind}, {SCOPE[d.scope]})</span>
                <span className="block text-xs text-muted-foreground">{levels(d)}</span>
                {harmLine(d) ? <span className="block text-xs text-muted-foreground">{harmLine(d)}</span> : null}
              </li>
            ))}
          </ul>
          {doc.totals.length ? <p className="mt-2 text-xs text-muted-foreground">Totals: {doc.totals.map((t) => t.name).join("; ")}</p> : <p className="mt-2 text-xs text-muted-foreground">No total.</p>}
        </details>
      ))}
    </section>
  );
}
