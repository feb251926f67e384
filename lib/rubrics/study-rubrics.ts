import type { RubricDimension, RubricDocument } from "./document";
import { ordinalRange, parseRubricDocument, repetitionProblems, RubricDocumentSchema, rubricProblems, type RubricProblem } from "./document";
import { rubricTemplate, templateOfDocument } from "./templates";

/**
 * A study's rubrics: the documents stored on the study (Study.rubrics, JSON),
 * checked on the way in. Everything that grades, scores, analyses or exports a
 * study reads its rubrics from here.
 */

/** The documents stored on a study, as written (they were checked when they were stored), each as its template reads today. */
export function storedRubrics(json: unknown): RubricDocument[] {
  if (!Array.isArray(json)) return [];
  return json.map((d) => withTemplateProperties(RubricDocumentSchema.parse(d)));
}

/**
 * Compatibility with studies (and archives) stored before a template said everything about itself:
 * a stored document built from a template (same key, version and dimensions) takes the template's
 * properties it lacks (its second headline, a total's alias or answer-by-answer display, its export names) and, when
 * it still has the instructions an earlier build wrote, today's instructions. What it has is kept.
 */
export function withTemplateProperties(doc: RubricDocument): RubricDocument {
  const t = templateOfDocument(doc.key);
  if (!t) return doc;
  const built = t.built;
  const former = doc.instructions !== undefined && t.formerInstructions?.includes(doc.instructions);
  const lacks =
    former ||
    (built.overallHeadline !== undefined && doc.overallHeadline === undefined) ||
    (built.exports !== undefined && doc.exports === undefined) ||
    built.totals.some((b) =>
      doc.totals.some((x) => x.key === b.key && ((b.alias !== undefined && x.alias === undefined) || (b.method === "sum" && b.perAnswer !== undefined && x.method === "sum" && x.perAnswer === undefined))),
    );
  if (!lacks) return doc;
  const builtDims = new Map(built.dimensions.map((d) => [d.key, d]));
  if (built.version !== doc.version || !doc.dimensions.every((d) => builtDims.has(d.key))) return doc;
  const next: RubricDocument = { ...doc };
  if (next.overallHeadline === undefined && built.overallHeadline !== undefined && doc.totals.some((x) => x.key === built.overallHeadline)) next.overallHeadline = built.overallHeadline;
  if (next.exports === undefined && built.exports !== undefined) next.exports = built.exports;
  next.totals = doc.totals.map((total) => {
    const same = built.totals.find((x) => x.key === total.key);
    if (!same) return total;
    const out = { ...total };
    if (out.alias === undefined && same.alias !== undefined) out.alias = same.alias;
    if (out.method === "sum" && same.method === "sum" && out.perAnswer === undefined && same.perAnswer !== undefined) out.perAnswer = same.perAnswer;
    return out;
  });
  if (former) {
    next.instructions = built.instructions;
    next.dimensions = doc.dimensions.map((d) => {
      const text = builtDims.get(d.key)!.instructions;
      return d.instructions === undefined && text !== undefined ? { ...d, instructions: text } : d;
    });
  }
  // A property the stored document cannot carry (a total it changed) leaves it as it was.
  return rubricProblems(next).length ? doc : next;
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
      const t = rubricTemplate(c);
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
 * A template for one answer per prompt: what compares the answers (a dimension
 * graded across them, or derived from them) cannot be graded, so it is left out
 * with what the instructions say of it, and each total that counted it says its
 * new maximum.
 */
export function forSingleAnswer(doc: RubricDocument): RubricDocument {
  const dropped = new Set(doc.dimensions.filter((d) => (d.scope === "set" && d.scale.kind !== "preference") || d.derived).map((d) => d.key));
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
  if (kept.overallHeadline && !kept.totals.some((t) => t.key === kept.overallHeadline)) delete kept.overallHeadline;
  return kept;
}

/** Template keys (or the keys of the documents they build) as the documents a study stores, for code that creates studies directly (the demo, tests). */
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
