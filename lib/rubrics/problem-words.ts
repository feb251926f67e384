import type { RubricDocument, RubricProblem } from "./document";

/**
 * A rubric document's problems said for the person building it: where, in the
 * builder's own words ("Dimension 2, level 3, label" rather than
 * "dimensions.1.scale.levels.2.label"), and what, in words (zod's "Too small:
 * expected string to have >=1 characters" becomes "the label is empty"). The
 * API keeps the paths and messages as they are: a program reads those.
 */

/** What a field is called in the builder. */
const FIELD: Record<string, string> = {
  key: "name",
  name: "name",
  definition: "definition",
  scope: "“graded on”",
  scale: "scale",
  kind: "scale",
  levels: "levels",
  value: "value",
  label: "label",
  example: "example",
  allowNA: "“not applicable”",
  threshold: "escalation spread",
  requireCommentAtOrBelow: "“comment required at or below”",
  harmAtOrBelow: "“harm flag at or below”",
  derived: "derivation",
  of: "derived from",
  method: "method",
  dimensions: "dimensions",
  dimension: "dimension",
  bands: "bands",
  min: "min",
  max: "max",
  across: "“across the answers”",
  source: "source",
  instructions: "instructions",
  headline: "headline total",
};

/** A field the builder does not name (one added to the document later): its name in words. */
const fieldName = (segment: string) => FIELD[segment] ?? segment.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

const isIndex = (s: string | undefined) => s !== undefined && /^\d+$/.test(s);

/** Where a problem is: its place ("Dimension 2, level 3") and the field there ("label"), if any. */
export function placeOf(path: string): { place: string[]; field: string | null } {
  const s = path === "" ? [] : path.split(".");
  if (!s.length) return { place: ["The rubric"], field: null };
  if (s[0] === "key" || s[0] === "name") return { place: ["Rubric name"], field: null };
  if (s[0] === "dimensions" || s[0] === "totals") {
    const what = s[0] === "dimensions" ? "Dimension" : "Total";
    if (!isIndex(s[1])) return { place: [s[0] === "dimensions" ? "Dimensions" : "Totals"], field: null };
    const place = [`${what} ${Number(s[1]) + 1}`];
    let rest = s.slice(2);
    if (rest[0] === "scale" && rest.length > 1) rest = rest.slice(1);
    if (rest[0] === "levels" && isIndex(rest[1])) {
      place.push(`level ${Number(rest[1]) + 1}`);
      rest = rest.slice(2);
    } else if (rest[0] === "bands" && isIndex(rest[1])) {
      place.push(`band ${Number(rest[1]) + 1}`);
      rest = rest.slice(2);
    } else if (rest[0] === "dimensions" && isIndex(rest[1])) {
      place.push(`counted dimension ${Number(rest[1]) + 1}`);
      rest = rest.slice(2);
    } else if (rest[0] === "across" && rest[1]) {
      return { place: [...place, `“across the answers” of ${rest[1]}`], field: null };
    }
    const leaf = rest[rest.length - 1];
    return { place, field: leaf === undefined ? null : fieldName(leaf) };
  }
  return { place: [fieldName(s[0]).replace(/^./, (c) => c.toUpperCase())], field: null };
}

const PLURAL: Record<string, string> = { levels: "levels", dimensions: "dimensions", bands: "bands", totals: "totals" };

/** What is wrong, in words. */
export function wordsOf(problem: RubricProblem, doc?: Pick<RubricDocument, "dimensions">): string {
  const m = problem.message;
  const s = problem.path.split(".");
  const leaf = s[s.length - 1];
  const { field } = placeOf(problem.path);
  const the = field ? `the ${field} ` : "";
  let x: RegExpExecArray | null;
  // An ordinal level's value typed as something else than a whole number.
  if (leaf === "value" && s[0] === "dimensions" && doc?.dimensions[Number(s[1])]?.scale.kind === "ordinal" && /^(Invalid input|a key is)/.test(m)) {
    return "the value must be a whole number";
  }
  if ((x = /^Too small: expected string to have >=(\d+) characters?$/.exec(m))) return x[1] === "1" ? (field ? `${the}is empty` : "required") : `${the}needs at least ${x[1]} characters`;
  if ((x = /^Too big: expected string to have <=(\d+) characters?$/.exec(m))) return `${the}is longer than ${x[1]} characters`;
  if ((x = /^Too small: expected array to have >=(\d+) items?$/.exec(m))) {
    if (problem.path === "dimensions") return "add a dimension: a rubric needs at least one";
    return `needs at least ${x[1]} ${PLURAL[leaf] ?? "items"}`;
  }
  if ((x = /^Too big: expected array to have <=(\d+) items?$/.exec(m))) return `has more than ${x[1]} ${PLURAL[leaf] ?? "items"}`;
  if ((x = /^Too small: expected number to be >(-?[\d.]+)$/.exec(m))) return `${the}must be more than ${x[1]}`;
  if ((x = /^Too small: expected number to be >=(-?[\d.]+)$/.exec(m))) return `${the}must be ${x[1]} or more`;
  if ((x = /^Too big: expected number to be <=(-?[\d.]+)$/.exec(m))) return `${the}must be ${x[1]} or less`;
  if (/^Invalid input: expected (number|int), received NaN$/.test(m)) return `${the}must be a number`;
  if (/^Invalid input: expected \w+, received undefined$/.test(m)) return `${the}is missing`;
  if (/^Invalid input: expected int, received number$/.test(m)) return `${the}must be a whole number`;
  if (m === "Invalid input") return `${the}is not valid`;
  return m;
}

/** One problem in a sentence: "Dimension 2, level 3: the label is empty". */
export function describeProblem(problem: RubricProblem, doc?: Pick<RubricDocument, "dimensions">): string {
  const { place, field } = placeOf(problem.path);
  const words = wordsOf(problem, doc);
  // Words that do not name their field get it after the place: "Dimension 1, escalation spread: the threshold…".
  const where = field && !words.startsWith(`the ${field}`) ? [...place, field] : place;
  return `${where.join(", ")}: ${words}`;
}
