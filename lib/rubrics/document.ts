import { z } from "zod";
import "@/lib/api/zod-openapi";
import { lineText, multilineText } from "@/lib/validation/text";

/**
 * A rubric as data: the one source of truth for an instrument's keys, labels,
 * scales, escalation thresholds, form, scoring, statistics and export. The
 * zod schema checks each field; `rubricProblems` checks what fields say of one
 * another (keys that repeat, levels out of order, a rule naming a dimension
 * that is not there), each problem with its JSON path.
 */
const KEY = /^[a-z][a-z0-9_]{0,62}$/;
const key = z.string().regex(KEY, "a key is lower-case letters, digits and _, starting with a letter (at most 63)");
/** A rubric's own key may be upper-case too: the first two templates keep the keys their grades and exports have always had. */
const rubricKey = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,62}$/, "a rubric key is letters, digits and _, starting with a letter (at most 63)");
// Text the grader reads: no control characters (PostgreSQL's jsonb refuses some, and they hide in a form).
const label = (max: number) => lineText().min(1).max(max);
const prose = (max: number) => multilineText().trim().max(max);

export const LevelSchema = z.object({
  /** Ordinal scales: integers; nominal scales: strings. */
  value: z.union([z.int().min(-1000).max(1000), key]),
  label: label(300),
  example: prose(2000).optional(),
});

export const ScaleSchema = z.object({
  /** `preference`: an axis of a pairwise study, on which the grader says which of two answers is better (levels fixed: a, tie, b). */
  kind: z.enum(["ordinal", "nominal", "criteria", "preference"]),
  /** Not for criteria: their criteria come with each question. A preference axis may give them only to relabel its fixed values. */
  levels: z.array(LevelSchema).min(2).max(20).optional(),
  /** A grader may answer "not applicable" (stored as no score, with the N/A mark). */
  allowNA: z.boolean().optional(),
  /** Preference axes: whether "tie" may be chosen (default true). */
  allowTie: z.boolean().optional(),
  /** Preference axes: the grader may say how much better (slightly / clearly). */
  strength: z.boolean().optional(),
  /**
   * Preference axes asked the other way round ("which answer omits more important information?"):
   * the answer chosen is the worse one, so statistics count a choice of it as a loss.
   */
  choiceIsWorse: z.boolean().optional(),
});

/**
 * A dimension's escalation rule: never; on any disagreement; or when the
 * graders' spread reaches `threshold` (ordinal only). `na`: whether one
 * grader's N/A against another's value escalates (the default) or is left out.
 */
export const EscalationSchema = z.object({
  rule: z.enum(["never", "any", "spread"]),
  threshold: z.number().positive().optional(),
  na: z.enum(["escalate", "ignore"]).optional(),
});

export const DimensionScopeSchema = z.enum(["first_answer", "each_answer", "set"]);

export const RubricDimensionSchema = z.object({
  key,
  name: label(120),
  definition: prose(4000).optional(),
  scope: DimensionScopeSchema,
  /**
   * What the rubric's instructions say of this dimension alone ("Reproducibility once, across all the
   * answers"): said after them while the dimension is graded, so a study without it (one answer per
   * prompt drops what compares the answers) never reads it.
   */
  instructions: prose(2000).optional(),
  scale: ScaleSchema,
  /** Computed from the grader's own scores, never typed. */
  derived: z.object({ rule: z.literal("equal_across_answers"), of: key }).optional(),
  /** Escalation: primary graders' spread at or above it is a disagreement (ordinal); nominal escalates on any disagreement. Older documents' form of `escalation: { rule: "spread", threshold }`. */
  threshold: z.number().positive().optional(),
  /** When the primary graders' values call a third grader (lib/rubrics/escalation-rule.ts); without it, `threshold` as above. */
  escalation: EscalationSchema.optional(),
  /** The grader must say why when scoring at or below this value. */
  requireCommentAtOrBelow: z.number().optional(),
  /** The potential-harm flag is offered when a score is at or below this value (a safety of 2 on a 1-5 scale); a rubric naming none offers it always. */
  harmAtOrBelow: z.number().optional(),
  /** The same at or above this value (a severity scale: No harm ... Death). */
  harmAtOrAbove: z.number().optional(),
  /**
   * Across the harm line the grader must decide: flag it, or say why it is not a harm ("required");
   * "offered" leaves the flag optional. Unsaid: required at or above a value; offered at or below one,
   * as documents written before the decision existed (the published rubrics among them) offer it.
   */
  harmDecision: z.enum(["required", "offered"]).optional(),
});

export const AcrossAnswersSchema = z.enum(["mean", "max", "min"]);

const totalBase = {
  key,
  name: label(120),
  /** A second key the final totals also carry this total under: the name API clients read before rubrics were documents. */
  alias: z.string().regex(/^[a-z][A-Za-z0-9]{0,62}$/, "an alias is letters and digits, starting with a lower-case letter").optional(),
};
export const RubricTotalSchema = z.discriminatedUnion("method", [
  z.object({
    ...totalBase,
    /** The sum of the dimensions' values; an each-answer dimension counts by `across` its answers (the mean unless said). */
    method: z.literal("sum"),
    dimensions: z.array(key).min(1).max(100),
    across: z.record(key, AcrossAnswersSchema).optional(),
    /** Named ranges of the total (DISCERN's five bands), lowest first. */
    bands: z.array(z.object({ min: z.number(), max: z.number(), label: label(120) })).max(20).optional(),
    /**
     * Also a value of each answer: the grading form shows each answer's total (its each-answer
     * dimensions on that answer plus the set's) and their mean, which is this total.
     */
    perAnswer: z.boolean().optional(),
  }),
  z.object({
    ...totalBase,
    /** Percent of the maximum over the items that apply (N/A excluded): PEMAT's understandability and actionability. */
    method: z.literal("percent_applicable"),
    dimensions: z.array(key).min(1).max(100),
  }),
  z.object({
    ...totalBase,
    /** Points of the criteria met over the positive points available, clipped to 0-1 (HealthBench). */
    method: z.literal("criteria_score"),
    dimension: key,
  }),
]);

/**
 * How the rubric's results are exported, when its published analysis code reads names of its own:
 * without it, columns are named from the keys (lib/exports/results.ts).
 */
export const RubricExportsSchema = z.object({
  /**
   * The long analysis format (score-long) names these columns, in this order, after
   * domain,model,response_id: exactly the header the rubric's published analysis code reads, so its
   * CSV feeds that code unchanged. A dimension the study does not grade keeps its (empty) column:
   * the code reads a fixed header.
   */
  longColumns: z.array(z.object({ dimension: key, column: label(63) })).min(1).max(100).optional(),
  /**
   * The sets export's total columns, in this order, in place of `<rubric>_total_<total>`: the names
   * earlier exports (and the analyses reading them) always had. `value` is a total's key, its alias,
   * `headline` or `percent` (the headline as a percentage of its maximum).
   */
  totalColumns: z.array(z.object({ column: key, value: z.string().regex(/^[a-z][A-Za-z0-9_]{0,62}$/) })).min(1).max(40).optional(),
});

export const RubricDocumentSchema = z.object({
  key: rubricKey,
  name: label(120),
  version: z.int().min(1).max(1_000_000),
  source: prose(2000).optional(),
  instructions: prose(20_000).optional(),
  dimensions: z.array(RubricDimensionSchema).min(1).max(100),
  totals: z.array(RubricTotalSchema).max(20),
  /** The total dashboards lead with (Cliff's delta, rankings); required when there are totals. */
  headline: key.optional(),
  /**
   * The total that leads instead when the study scores each prompt once from its N answers (its
   * "overall" scoring) rather than answer by answer; a rubric naming none leads with `headline` either way.
   */
  overallHeadline: key.optional(),
  exports: RubricExportsSchema.optional(),
});

export type RubricDocument = z.infer<typeof RubricDocumentSchema>;
export type RubricDimension = z.infer<typeof RubricDimensionSchema>;
export type RubricTotal = z.infer<typeof RubricTotalSchema>;
export type RubricExports = z.infer<typeof RubricExportsSchema>;
export type RubricLevel = z.infer<typeof LevelSchema>;
export type DimensionScope = z.infer<typeof DimensionScopeSchema>;
export type AcrossAnswers = z.infer<typeof AcrossAnswersSchema>;
export type DimensionEscalation = z.infer<typeof EscalationSchema>;

export interface RubricProblem {
  /** JSON path into the document, e.g. "dimensions.2.scale.levels.1.value". */
  path: string;
  message: string;
}

/** An ordinal dimension's lowest and highest values. */
export function ordinalRange(d: RubricDimension): { min: number; max: number } {
  const values = (d.scale.levels ?? []).map((l) => Number(l.value));
  return { min: Math.min(...values), max: Math.max(...values) };
}

/**
 * A rubric's instructions as graders (and judges) read them: the document's own, then what it
 * says of each dimension it still has. A study without a dimension reads nothing about it.
 */
export function rubricInstructions(doc: Pick<RubricDocument, "instructions" | "dimensions">): string {
  return [doc.instructions, ...doc.dimensions.map((d) => d.instructions)]
    .map((t) => t?.trim())
    .filter(Boolean)
    .join(" ");
}

/** A total's name without the range it may end with ("Total (/25)", "Score (5-25)" → "Total", "Score"), for places that show the range themselves. */
export function bareTotalName(name: string): string {
  return name.replace(/\s*\((?:\/\d+|-?\d+\s*[-–]\s*\d+\b)[^)]*\)$/, "");
}

/** What fields of a schema-valid document say of one another. Empty when it is consistent. */
export function rubricProblems(doc: RubricDocument): RubricProblem[] {
  const problems: RubricProblem[] = [];
  const add = (path: (string | number)[], message: string) => problems.push({ path: path.join("."), message });
  const byKey = new Map<string, RubricDimension>();

  doc.dimensions.forEach((d, i) => {
    const at = ["dimensions", i];
    if (byKey.has(d.key)) add([...at, "key"], `the dimension key "${d.key}" is used twice`);
    else byKey.set(d.key, d);
    const levels = d.scale.levels;
    if (d.scale.kind !== "preference") {
      if (d.scale.allowTie !== undefined) add([...at, "scale", "allowTie"], "only preference axes have a tie to allow");
      if (d.scale.strength !== undefined) add([...at, "scale", "strength"], "only preference axes have a strength");
      if (d.scale.choiceIsWorse !== undefined) add([...at, "scale", "choiceIsWorse"], "only preference axes choose between two answers");
    }
    if (d.scale.kind === "preference") {
      preferenceProblems(d).forEach(([field, message]) => add([...at, ...field], message));
    } else if (d.scale.kind === "criteria") {
      if (levels) add([...at, "scale", "levels"], "a criteria scale has no levels: its criteria come with each question");
      if (d.scope === "set") add([...at, "scope"], "criteria are met or not by an answer: the scope is first_answer or each_answer");
      if (d.derived) add([...at, "derived"], "a criteria dimension cannot be derived");
    } else if (!levels) {
      add([...at, "scale", "levels"], `an ${d.scale.kind} scale needs its levels`);
    } else if (d.scale.kind === "ordinal") {
      levels.forEach((l, j) => {
        if (typeof l.value !== "number") add([...at, "scale", "levels", j, "value"], "ordinal levels have integer values");
        else if (j > 0 && typeof levels[j - 1].value === "number" && l.value <= (levels[j - 1].value as number)) {
          add([...at, "scale", "levels", j, "value"], "ordinal levels go from the lowest value to the highest, each value once");
        }
      });
    } else {
      const seen = new Set<string | number>();
      levels.forEach((l, j) => {
        if (typeof l.value !== "string") add([...at, "scale", "levels", j, "value"], "nominal levels have string values (lower-case keys)");
        if (seen.has(l.value)) add([...at, "scale", "levels", j, "value"], `the level "${l.value}" is listed twice`);
        seen.add(l.value);
      });
    }
    const numeric = d.scale.kind === "ordinal" && levels?.every((l) => typeof l.value === "number");
    if (d.threshold !== undefined) {
      if (d.scale.kind !== "ordinal") add([...at, "threshold"], "only ordinal dimensions have a threshold: a nominal one escalates never or on any disagreement (escalation.rule)");
      else if (numeric) {
        const { min, max } = ordinalRange(d);
        if (d.threshold > max - min) add([...at, "threshold"], `the threshold ${d.threshold} is larger than the scale's spread (${max - min}): it could never be reached`);
      }
    }
    // A grader's categories on several answers have no one value for the set (ordinal answers are averaged).
    if (d.scale.kind === "nominal" && d.scope === "each_answer")
      add([...at, "scope"], "a nominal dimension is graded once per set (first_answer or set): its categories on several answers have no one value to agree on, average or export");
    harmProblems(d, numeric).forEach(([field, message]) => add([...at, field], message));
    escalationProblems(d, numeric).forEach(([field, message]) => add([...at, ...field.split(".")], message));
    if (d.requireCommentAtOrBelow !== undefined) {
      if (d.scale.kind !== "ordinal") add([...at, "requireCommentAtOrBelow"], "only ordinal dimensions can require a comment at or below a value");
      else if (numeric) {
        const { min, max } = ordinalRange(d);
        if (d.requireCommentAtOrBelow < min || d.requireCommentAtOrBelow > max) add([...at, "requireCommentAtOrBelow"], `outside the scale (${min}-${max})`);
      }
    }
  });

  doc.dimensions.forEach((d, i) => {
    if (!d.derived) return;
    const at = ["dimensions", i, "derived"];
    const of = byKey.get(d.derived.of);
    if (!of) add([...at, "of"], `no dimension "${d.derived.of}" to derive from`);
    else if (of === d || of.derived) add([...at, "of"], "a dimension is derived from a dimension the grader scores");
    else if (of.scope !== "each_answer") add([...at, "of"], `"equal_across_answers" compares the answers: "${of.key}" must be scored on each answer`);
    if (d.scope !== "set") add(["dimensions", i, "scope"], "a value derived across the answers belongs to the whole set: its scope is set");
    const values = (d.scale.levels ?? []).map((l) => l.value).join(",");
    if (d.scale.kind !== "ordinal" || values !== "0,1") add(["dimensions", i, "scale"], "equal_across_answers gives 0 or 1: an ordinal scale with levels 0 and 1");
    if (d.scale.allowNA) add(["dimensions", i, "scale", "allowNA"], "a derived dimension is never N/A");
  });

  const totalKeys = new Set<string>();
  doc.totals.forEach((t, i) => {
    const at = ["totals", i];
    if (totalKeys.has(t.key)) add([...at, "key"], `the total key "${t.key}" is used twice`);
    totalKeys.add(t.key);
    if (t.method === "criteria_score") {
      const d = byKey.get(t.dimension);
      if (!d) add([...at, "dimension"], `no dimension "${t.dimension}"`);
      else if (d.scale.kind !== "criteria") add([...at, "dimension"], `"${t.dimension}" is not a criteria dimension`);
      return;
    }
    const seen = new Set<string>();
    t.dimensions.forEach((k, j) => {
      const d = byKey.get(k);
      if (seen.has(k)) add([...at, "dimensions", j], `"${k}" is counted twice`);
      seen.add(k);
      if (!d) add([...at, "dimensions", j], `no dimension "${k}"`);
      else {
        const why = whyNotCounted(d, t.method);
        if (why) add([...at, "dimensions", j], `"${k}" ${why}`);
      }
    });
    if (t.method === "sum") {
      for (const k of Object.keys(t.across ?? {})) {
        if (!t.dimensions.includes(k)) add([...at, "across", k], `"${k}" is not among the total's dimensions`);
        else if (byKey.get(k)?.scope !== "each_answer") add([...at, "across", k], `"${k}" is not scored on each answer`);
      }
      if (t.perAnswer) {
        const dims = t.dimensions.map((k) => byKey.get(k));
        if (!dims.some((d) => d?.scope === "each_answer")) add([...at, "perAnswer"], "a total per answer counts at least one dimension scored on each answer");
        for (const [k, how] of Object.entries(t.across ?? {})) {
          if (how !== "mean") add([...at, "perAnswer"], `"${k}" counts by its ${how} across the answers: the mean of the answers' totals would not be this total`);
        }
      }
      t.bands?.forEach((b, j) => {
        if (b.min > b.max) add([...at, "bands", j], "a band's min is above its max");
        if (j > 0 && b.min <= t.bands![j - 1].max) add([...at, "bands", j], "bands go from the lowest to the highest, without overlap");
      });
    }
  });
  if (doc.headline !== undefined && !totalKeys.has(doc.headline)) add(["headline"], `no total "${doc.headline}"`);
  if (doc.overallHeadline !== undefined && !totalKeys.has(doc.overallHeadline)) add(["overallHeadline"], `no total "${doc.overallHeadline}"`);
  const aliases = new Set<string>();
  doc.totals.forEach((t, i) => {
    if (t.alias === undefined) return;
    if (totalKeys.has(t.alias) || aliases.has(t.alias) || t.alias === "headline" || t.alias === "percent") add(["totals", i, "alias"], `the alias "${t.alias}" is already a key of the final totals`);
    aliases.add(t.alias);
  });
  if (doc.headline === undefined && doc.totals.length > 0) add(["headline"], "name the headline total (one of the totals' keys)");
  exportsProblems(doc, byKey, totalKeys, aliases).forEach(([field, message]) => add(["exports", ...field], message));
  return problems;
}

type FieldProblem = [field: string, message: string];

/** The fixed values of a preference axis, in the order the form shows them. */
export function preferenceValues(d: Pick<RubricDimension, "scale">): string[] {
  return d.scale.allowTie === false ? ["a", "b"] : ["a", "tie", "b"];
}

/**
 * A preference axis: judged once per comparison (scope set), its levels (if given, only to relabel)
 * exactly its fixed values, no N/A and no derivation (thresholds, harm lines and comments at a
 * value are refused for every scale without numbers); a comparison's harm flag is on each answer.
 */
function preferenceProblems(d: RubricDimension): [(string | number)[], string][] {
  const out: [(string | number)[], string][] = [];
  if (d.scope !== "set") out.push([["scope"], "a preference axis is judged once per comparison: its scope is set"]);
  const fixed = preferenceValues(d);
  if (d.scale.levels && d.scale.levels.map((l) => String(l.value)).join(",") !== fixed.join(",")) {
    out.push([["scale", "levels"], `a preference axis's levels are fixed: ${fixed.join(", ")} in that order (give them only to relabel)`]);
  }
  if (d.scale.allowNA) out.push([["scale", "allowNA"], "a preference axis has no N/A: a tie says neither answer is better"]);
  if (d.derived) out.push([["derived"], "a preference axis cannot be derived"]);
  return out;
}

/** Export column names: each once, none the long format's own, each naming what the document has. */
function exportsProblems(doc: RubricDocument, byKey: Map<string, RubricDimension>, totalKeys: Set<string>, aliases: Set<string>): [(string | number)[], string][] {
  const out: [(string | number)[], string][] = [];
  const long = new Set(["domain", "model", "response_id"]);
  doc.exports?.longColumns?.forEach((c, i) => {
    if (long.has(c.column)) out.push([["longColumns", i, "column"], `the column "${c.column}" is used twice`]);
    long.add(c.column);
    // A dimension the document lacks is allowed (a study without it keeps the column empty); a criteria one has no final value.
    if (byKey.get(c.dimension)?.scale.kind === "criteria") out.push([["longColumns", i, "dimension"], `"${c.dimension}" is a criteria dimension: it has no final value to export`]);
  });
  const columns = new Set<string>();
  doc.exports?.totalColumns?.forEach((c, i) => {
    if (columns.has(c.column)) out.push([["totalColumns", i, "column"], `the column "${c.column}" is used twice`]);
    columns.add(c.column);
    const headline = (c.value === "headline" || c.value === "percent") && doc.headline !== undefined;
    if (!headline && !totalKeys.has(c.value) && !aliases.has(c.value)) out.push([["totalColumns", i, "value"], `no total "${c.value}"`]);
  });
  return out;
}

/** The harm line: one direction, on an ordinal scale, at one of its values' range. */
function harmProblems(d: RubricDimension, numeric: boolean | undefined): FieldProblem[] {
  const out: FieldProblem[] = [];
  const lines = (["harmAtOrBelow", "harmAtOrAbove"] as const).filter((f) => d[f] !== undefined);
  if (lines.length === 2) out.push(["harmAtOrAbove", "a harm line has one direction: harmAtOrBelow (low is harmful) or harmAtOrAbove (high is harmful), not both"]);
  for (const f of lines) {
    if (d.scale.kind !== "ordinal") out.push([f, `only ordinal dimensions have a harm line (${f === "harmAtOrBelow" ? "at or below" : "at or above"} a value)`]);
    else if (numeric) {
      const { min, max } = ordinalRange(d);
      if (d[f]! < min || d[f]! > max) out.push([f, `the harm line ${d[f]} is outside the scale (${min}-${max})`]);
    }
  }
  if (d.harmDecision !== undefined && lines.length === 0) out.push(["harmDecision", "a harm decision needs a harm line (harmAtOrBelow or harmAtOrAbove)"]);
  return out;
}

/** The escalation rule: a spread only on an ordinal scale, with a threshold it can reach; none on criteria. */
function escalationProblems(d: RubricDimension, numeric: boolean | undefined): FieldProblem[] {
  const e = d.escalation;
  if (!e) return [];
  if (d.scale.kind === "criteria") return [["escalation", "criteria dimensions do not escalate"]];
  if (d.scale.kind === "preference" && e.rule === "spread") return [["escalation.rule", "a preference axis escalates never or on opposite preferences (any)"]];
  const out: FieldProblem[] = [];
  if (e.rule === "spread") {
    if (d.scale.kind !== "ordinal") out.push(["escalation.rule", "a spread needs an ordinal scale: a nominal dimension escalates never or on any disagreement"]);
    else if (e.threshold === undefined && d.threshold === undefined) out.push(["escalation.threshold", "the spread rule needs its threshold"]);
  } else if (e.threshold !== undefined) out.push(["escalation.threshold", `only the spread rule has a threshold (the rule is "${e.rule}")`]);
  if (e.threshold !== undefined && d.threshold !== undefined && e.threshold !== d.threshold)
    out.push(["escalation.threshold", `two thresholds (${d.threshold} and ${e.threshold}): give it once, in escalation`]);
  if (e.threshold !== undefined && d.scale.kind === "ordinal" && numeric) {
    const { min, max } = ordinalRange(d);
    if (e.threshold > max - min) out.push(["escalation.threshold", `the threshold ${e.threshold} is larger than the scale's spread (${max - min}): it could never be reached`]);
  }
  return out;
}

/**
 * Why a total of this method cannot count the dimension (null when it can): the builder
 * greys such a dimension out with this reason, and the document's check refuses it with it.
 */
export function whyNotCounted(d: Pick<RubricDimension, "scale">, method: "sum" | "percent_applicable"): string | null {
  if (d.scale.kind !== "ordinal") return `is ${d.scale.kind}: only ordinal dimensions add up`;
  if (method === "sum" && d.scale.allowNA) return "allows N/A, which a sum cannot count: use percent_applicable";
  return null;
}

/**
 * What a rubric cannot do with N answers per prompt: with one answer, nothing
 * varies across answers, so a set-scoped or derived dimension asks the impossible.
 */
export function repetitionProblems(doc: RubricDocument, n: number): RubricProblem[] {
  if (n > 1) return [];
  const problems: RubricProblem[] = [];
  doc.dimensions.forEach((d, i) => {
    if (d.derived) problems.push({ path: `dimensions.${i}.derived`, message: `"${d.name}" is derived across the answers: it needs more than one answer per prompt` });
    // A preference axis is "set" because it is judged once per comparison, not across a model's answers.
    else if (d.scope === "set" && d.scale.kind !== "preference") problems.push({ path: `dimensions.${i}.scope`, message: `"${d.name}" is graded across the answers: it needs more than one answer per prompt` });
  });
  return problems;
}

export type ParsedRubric = { ok: true; rubric: RubricDocument } | { ok: false; problems: RubricProblem[] };

/** Parses and checks a rubric document: every problem with its JSON path, or the rubric. */
export function parseRubricDocument(input: unknown): ParsedRubric {
  const parsed = RubricDocumentSchema.safeParse(input);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) };
  const problems = rubricProblems(parsed.data);
  return problems.length ? { ok: false, problems } : { ok: true, rubric: parsed.data };
}
