import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * The oncology survey study of own-instrument.spec.ts (issue 31): its items,
 * questions, answers and every grade the two graders give, and the checks
 * the spec runs on each page (axe, no sideways scroll) and on the export.
 */
export const KEY = "oncology_survey";
export const AI = "Draft-GPT4";
export const HUMAN = "Clinician-Reply";
export const SOURCES = [AI, HUMAN] as const;
export type Source = (typeof SOURCES)[number];
export const QUESTIONS = 20;
export const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

export const DIMS = [
  { name: "Acceptability", key: "acceptability", labels: ["Unacceptable", "Acceptable with edits", "Acceptable as written"], na: false },
  { name: "Likelihood of harm", key: "likelihood_of_harm", labels: ["Unlikely", "Possible", "Likely"], na: false },
  { name: "Extent of harm", key: "extent_of_harm", labels: ["No harm", "Mild harm", "Moderate harm", "Severe harm", "Death"], na: true },
  { name: "Efficiency", key: "efficiency", labels: ["Less efficient", "About the same", "More efficient"], na: true },
] as const;
export const WRITTEN_BY = { name: "Written by", key: "written_by", levels: [{ value: "ai", label: "AI" }, { value: "human", label: "Human" }] } as const;
export const DIM_KEYS = [...DIMS.map((d) => d.key), WRITTEN_BY.key];
export type DimKey = (typeof DIM_KEYS)[number];

export const pad = (q: number) => `ONC-${String(q).padStart(2, "0")}`;
export const FIRST_LINE = "Patient portal message, with the chart's context:";
export const ask = (q: number) => `Question ${q}: is the tingling in my fingers after cycle ${q} expected, and should I call?`;
/** Multi-line: the same first line for every question (what the queue used to show), the context, then the ask. */
export const question = (q: number) => `${FIRST_LINE}\nDiagnosis: breast cancer, stage II.\nTreatment: capecitabine, cycle ${q} of 8.\n\n${ask(q)}`;
export const answer = (q: number, s: Source) =>
  s === AI ? `Dear patient, thank you for your message about cycle ${q}. Tingling can be a side effect of capecitabine; please call us if it gets worse.` : `Hello, this is the clinic about cycle ${q}. Please call us today so we can check your hands.`;

/** A grade as the study's data: a number, a nominal level's value, or null for N/A. */
export type Value = number | string | null;
export interface Cell {
  value: Value;
  comment?: string;
}

/**
 * What grader g (0: desk, 1: phone) gives source s on question q. The model's drafts are acceptable as
 * written, the clinicians' need edits; question 3's clinician reply is unacceptable (a comment); question 2's
 * clinician reply is rated "Severe harm" by both; the clinicians' extent of harm is N/A on every 4th
 * question and the drafts' efficiency on every 5th; "written by" is right, except that the phone grader takes
 * question 1's draft for a human's: a nominal disagreement. On question 6's clinician reply the desk grader
 * rates "Severe harm" (through the API, which then needs the decision too), the phone grader "Moderate harm".
 */
export function gradeOf(q: number, s: Source, g: number): Record<DimKey, Cell> {
  const human = s === HUMAN;
  return {
    acceptability: human && q === 3 ? { value: 1, comment: `Grader ${g + 1}: it does not answer whether to call.` } : { value: human ? 2 : 3 },
    likelihood_of_harm: { value: human && q === 2 ? 3 : 1 },
    extent_of_harm: { value: human ? (q === 2 ? 4 : q === 6 ? 4 - g : q % 4 === 0 ? null : 2) : 1 },
    efficiency: { value: !human && q % 5 === 0 ? null : 2 },
    written_by: { value: q === 1 && !human && g === 1 ? "human" : human ? "human" : "ai" },
  };
}
export const SEVERE = { q: 2, s: HUMAN } as const;
export const harmComment = (q: number, g: number) => `Grader ${g + 1}: delays a call about neuropathy (question ${q}).`;
export const labelOf = (dim: DimKey, value: Value): string => {
  if (value === null) return "Not applicable";
  if (dim === "written_by") return WRITTEN_BY.levels.find((l) => l.value === value)!.label;
  return DIMS.find((d) => d.key === dim)!.labels[(value as number) - 1];
};

export function answersCsv(): string {
  const cell = (v: string) => `"${v.replace(/"/g, '""')}"`;
  const rows = ["item_id,specialty,question,reference_answer,model,repetition,response"];
  for (let q = 1; q <= QUESTIONS; q++) for (const s of SOURCES) rows.push([pad(q), "Oncology", cell(question(q)), "", s, 1, cell(answer(q, s))].join(","));
  return rows.join("\n") + "\n";
}

/** A minimal RFC 4180 reader: quoted fields may hold commas, quotes and line breaks. */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = "";
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") endField();
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endRow();
    } else field += c;
  }
  if (field || row.length) endRow();
  const [header, ...body] = rows.filter((r) => r.length > 1 || r[0] !== "");
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h.replace(/^\uFEFF/, ""), r[i] ?? ""])));
}

/** Serious or critical WCAG 2.1 AA violations of the page as it is now, as "page: rule (targets)". */
export async function axe(page: Page, where: string): Promise<string[]> {
  await expect(page.getByRole("status").filter({ hasText: /^Loading/ })).toHaveCount(0, { timeout: 30_000 });
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${where}: ${v.id} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")})`);
}

/** Fails with the widest elements when the page is wider than the screen (it would scroll sideways). */
export async function expectNoSidewaysScroll(page: Page, where: string) {
  const m = await page.evaluate(() => {
    const wide = Array.from(document.querySelectorAll("body *"))
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(-3)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.getAttribute("class") ?? "").slice(0, 60)}`);
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, wide };
  });
  expect.soft(m.scrollWidth, `${where}: ${m.scrollWidth}px wide on a ${m.innerWidth}px screen (${m.wide.join(" | ")})`).toBeLessThanOrEqual(m.innerWidth);
}

export const svgWords = (svg: string) => svg.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

