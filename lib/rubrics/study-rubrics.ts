import type { RubricDimension, RubricDocument } from "./document";
import { ordinalRange, parseRubricDocument, repetitionProblems, RubricDocumentSchema, type RubricProblem } from "./document";
import { rubricTemplate } from "./templates";

/**
 * A study's rubrics: the documents stored on the study (Study.rubrics, JSON),
 * checked on the way in. Everything that grades, scores, analyses or exports a
 * study reads its rubrics from here.
 */

/** The documents stored on a study, as written (they were checked when they were stored). */
export function storedRubrics(json: unknown): RubricDocument[] {
  if (!Array.isArray(json)) return [];
  return json.map((d) => RubricDocumentSchema.parse(d));
}

export function rubricKeys(docs: readonly RubricDocument[]): string[] {
  return docs.map((d) => d.key);
}

/** The keys of the rubrics stored on a study, without checking the documents (lists, filters). */
export function storedRubricKeys(json: unknown): string[] {
  return Array.isArray(json) ? json.map((d) => String((d as { key?: unknown })?.key ?? "")) : [];
}

export function findRubric(docs: readonly RubricDocument[], key: string): RubricDocument | undefined {
  return docs.find((d) => d.key === key);
}

export function findDimension(docs: readonly RubricDocument[], rubric: string, dimension: string): RubricDimension | undefined {
  return findRubric(docs, rubric)?.dimensions.find((d) => d.key === dimension);
}

/** Earlier names of the two published rubrics, still accepted wherever a template key is. */
const TEMPLATE_ALIASES: Record<string, string> = { SCORE: "score", SAFE_LLM: "safe_llm" };

export type RubricChoice = string | Record<string, unknown>;
export type ResolvedRubrics = { ok: true; rubrics: RubricDocument[] } | { ok: false; problems: RubricProblem[] };

/**
 * A lead's choice of rubrics (template keys or whole documents, any number)
 * as the documents to store, or every problem with its JSON path from
 * "rubrics". A study cannot hold two rubrics with the same key, nor (with one
 * answer per prompt) a dimension that needs several answers.
 */
export function resolveRubrics(choice: readonly unknown[], repetitions: number): ResolvedRubrics {
  const problems: RubricProblem[] = [];
  const rubrics: RubricDocument[] = [];
  if (choice.length === 0) return { ok: false, problems: [{ path: "rubrics", message: "choose at least one rubric: a template key (e.g. \"score\") or a rubric document" }] };
  choice.forEach((c, i) => {
    const at = `rubrics.${i}`;
    if (typeof c === "string") {
      const t = rubricTemplate(TEMPLATE_ALIASES[c] ?? c);
      if (!t) {
        problems.push({ path: at, message: `no rubric template "${c}"; see GET /api/v1/rubric-templates` });
        return;
      }
      const doc = t.build();
      rubrics.push(repetitions > 1 ? doc : forSingleAnswer(doc));
      return;
    }
    const parsed = parseRubricDocument(c);
    if (!parsed.ok) {
      for (const p of parsed.problems) problems.push({ path: p.path ? `${at}.${p.path}` : at, message: p.message });
      return;
    }
    rubrics.push(parsed.rubric);
  });
  const seen = new Map<string, number>();
  rubrics.forEach((r) => {
    const k = r.key.toLowerCase();
    if (seen.has(k)) problems.push({ path: `rubrics.${choice.length > 1 ? rubrics.indexOf(r) : 0}.key`, message: `two rubrics have the key "${r.key}": each rubric of a study needs its own key` });
    seen.set(k, 1);
  });
  rubrics.forEach((r, i) => {
    for (const p of repetitionProblems(r, repetitions)) problems.push({ path: `rubrics.${i}.${p.path}`, message: p.message });
  });
  return problems.length ? { ok: false, problems } : { ok: true, rubrics };
}

/**
 * A template for one answer per prompt: what compares the answers (S.C.O.R.E.
 * reproducibility, SAFE-LLM consistency) cannot be graded, so it is left out,
 * and each total that counted it says its new maximum.
 */
export function forSingleAnswer(doc: RubricDocument): RubricDocument {
  const dropped = new Set(doc.dimensions.filter((d) => d.scope === "set" || d.derived).map((d) => d.key));
  if (dropped.size === 0) return doc;
  const names = doc.dimensions.filter((d) => dropped.has(d.key)).map((d) => d.name.toLowerCase());
  const dimensions = doc.dimensions.filter((d) => !dropped.has(d.key));
  const kept = { ...doc, dimensions, totals: [] as RubricDocument["totals"] };
  for (const t of doc.totals) {
    if (t.method === "criteria_score") {
      kept.totals.push(t);
      continue;
    }
    const dims = t.dimensions.filter((k) => !dropped.has(k));
    if (dims.length === 0) continue;
    const across = t.method === "sum" && t.across ? Object.fromEntries(Object.entries(t.across).filter(([k]) => !dropped.has(k))) : undefined;
    const next = { ...t, dimensions: dims, ...(across ? { across } : {}) } as RubricDocument["totals"][number];
    if (t.method === "sum" && dims.length < t.dimensions.length) {
      const max = dims.reduce((m, k) => m + ordinalRange(dimensions.find((d) => d.key === k)!).max, 0);
      next.name = `${t.name.replace(/\s*\(\/\d+\)$/, "")} (/${max}, without ${names.join(" and ")}: one answer per prompt)`.slice(0, 120);
    }
    kept.totals.push(next);
  }
  if (kept.headline && !kept.totals.some((t) => t.key === kept.headline)) kept.headline = kept.totals[0]?.key;
  return kept;
}

/** Template keys (or SCORE, SAFE_LLM) as the documents a study stores, for code that creates studies directly (the demo, tests). */
export function templateRubrics(keys: readonly string[], repetitions = 3): RubricDocument[] {
  const r = resolveRubrics(keys, repetitions);
  if (!r.ok) throw new Error(r.problems.map((p) => `${p.path}: ${p.message}`).join("; "));
  return r.rubrics;
}

/** The keys of a choice as a lead would compare them (templates by their document's key). */
export function sameRubrics(a: readonly RubricDocument[], b: readonly RubricDocument[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** An ordinal dimension's value range, or null for nominal and criteria dimensions. */
export function scaleRange(d: RubricDimension): { min: number; max: number } | null {
  return d.scale.kind === "ordinal" ? ordinalRange(d) : null;
}
