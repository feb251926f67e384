import { ordinalRange, rubricProblems, type RubricDimension, type RubricDocument, type RubricTotal } from "@/lib/rubrics/document";

/** A key from a name: lower-case letters, digits and _ (what a rubric document's keys allow). */
export function keyOf(name: string, fallback: string): string {
  const k = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .replace(/^(\d)/, "d$1")
    .slice(0, 63);
  return k || fallback;
}

export type ScaleChoice = "likert5" | "zero10" | "yesno" | "nominal" | "criteria";

export const SCALES: Record<ScaleChoice, { label: string; scale: RubricDimension["scale"] }> = {
  likert5: {
    label: "Likert 1-5",
    scale: { kind: "ordinal", levels: ["Strongly disagree", "Disagree", "Neutral", "Agree", "Strongly agree"].map((label, i) => ({ value: i + 1, label })) },
  },
  zero10: { label: "0-10", scale: { kind: "ordinal", levels: Array.from({ length: 11 }, (_, i) => ({ value: i, label: String(i) })) } },
  yesno: { label: "No / Yes (0-1)", scale: { kind: "ordinal", levels: [{ value: 0, label: "No" }, { value: 1, label: "Yes" }] } },
  nominal: { label: "Categories (nominal)", scale: { kind: "nominal", levels: [{ value: "a", label: "First category" }, { value: "b", label: "Second category" }] } },
  criteria: { label: "Criteria per question (met or not)", scale: { kind: "criteria" } },
};

/** The preset a scale is, if it is one (its levels unedited). */
export function presetOf(scale: RubricDimension["scale"]): ScaleChoice | undefined {
  return (Object.keys(SCALES) as ScaleChoice[]).find((k) => SCALES[k].scale.kind === scale.kind && JSON.stringify(SCALES[k].scale.levels) === JSON.stringify(scale.levels));
}

export type SumTotal = Extract<RubricTotal, { method: "sum" }>;

export interface Draft {
  name: string;
  instructions: string;
  /** The instrument's citation. */
  source?: string;
  dimensions: RubricDimension[];
  /** A total summing the ordinal dimensions that always have a value, kept in step with them; it comes first. */
  sum: boolean;
  /** The lead's own totals (an imported rubric's, advanced fields such as `across` included), after the automatic one. */
  totals?: RubricTotal[];
  headline?: string;
  /** The total that leads under the study's overall scoring (an imported rubric's), kept while that total is. */
  overallHeadline?: string;
  /** Carried through unedited (a template's published export names), while they still fit the totals. */
  exports?: RubricDocument["exports"];
}

/** The sum of the ordinal dimensions that always have a value (each-answer ones averaged over the answers), or none. */
export function automaticSum(dimensions: RubricDimension[]): SumTotal | null {
  const ordinal = dimensions.filter((x) => x.scale.kind === "ordinal" && !x.scale.allowNA && !x.derived && (x.scale.levels ?? []).length > 0);
  if (!ordinal.length) return null;
  const range = ordinal.reduce((r, x) => ({ min: r.min + ordinalRange(x).min, max: r.max + ordinalRange(x).max }), { min: 0, max: 0 });
  return { key: "total", name: `Total (${range.min}-${range.max})`, method: "sum", dimensions: ordinal.map((x) => x.key) };
}

/** The document the builder's state stands for. */
export function documentOf(d: Draft): RubricDocument {
  const auto = d.sum ? automaticSum(d.dimensions) : null;
  const totals = [...(auto ? [auto] : []), ...(d.totals ?? [])];
  // A headline that names a removed total falls back to the first one, as a lead who removed it would expect.
  const headline = d.headline !== undefined && totals.some((t) => t.key === d.headline) ? d.headline : totals[0]?.key;
  const doc: RubricDocument = {
    key: keyOf(d.name, "rubric"),
    name: d.name,
    version: 1,
    ...(d.source?.trim() ? { source: d.source } : {}),
    ...(d.instructions.trim() ? { instructions: d.instructions } : {}),
    dimensions: d.dimensions,
    totals,
    ...(headline !== undefined ? { headline } : {}),
    ...(d.overallHeadline !== undefined && totals.some((t) => t.key === d.overallHeadline) ? { overallHeadline: d.overallHeadline } : {}),
  };
  if (!d.exports) return doc;
  // Export names that no longer fit an edited rubric (a total removed) are dropped, not reported as the lead's problem.
  const withExports = { ...doc, exports: d.exports };
  return rubricProblems(withExports).some((p) => p.path.startsWith("exports")) ? doc : withExports;
}

/** The builder's state for a rubric to edit (its totals kept as they are), or for a blank one. */
export function draftOf(doc: RubricDocument | undefined): Draft {
  if (!doc) return { name: "", instructions: "", source: "", dimensions: [], sum: true, totals: [] };
  return {
    name: doc.name,
    instructions: doc.instructions ?? "",
    source: doc.source ?? "",
    dimensions: doc.dimensions,
    sum: false,
    totals: doc.totals,
    ...(doc.headline !== undefined ? { headline: doc.headline } : {}),
    ...(doc.overallHeadline !== undefined ? { overallHeadline: doc.overallHeadline } : {}),
    ...(doc.exports !== undefined ? { exports: doc.exports } : {}),
  };
}

/** A dimension's key renamed in the totals that count it (they name it by key). */
export function renameInTotals(totals: RubricTotal[], from: string, to: string): RubricTotal[] {
  return totals.map((t) => {
    if (t.method === "criteria_score") return t.dimension === from ? { ...t, dimension: to } : t;
    const dimensions = t.dimensions.map((k) => (k === from ? to : k));
    if (t.method === "sum" && t.across && from in t.across) {
      const { [from]: how, ...rest } = t.across;
      return { ...t, dimensions, across: { ...rest, [to]: how } };
    }
    return { ...t, dimensions };
  });
}
