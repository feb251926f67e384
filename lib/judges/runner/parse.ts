import type { RubricDimension } from "@/lib/rubrics/document";
import type { TokenLogprob } from "./client";
import type { JudgeUnit } from "./prompt";

/**
 * Reading a judge's reply: the JSON object of a value per dimension, and (with
 * logprobs) the probability of each level at the token where the value starts.
 */

export type LevelValue = number | string;

export class MalformedReply extends Error {}

/** The first balanced {...} of the reply (models wrap JSON in prose or code fences). */
export function jsonObjectIn(content: string): { text: string; start: number } | null {
  const start = content.indexOf("{");
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  for (let i = start; i < content.length; i++) {
    const c = content[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return { text: content.slice(start, i + 1), start };
  }
  return null;
}

function levelOf(d: RubricDimension, raw: unknown): LevelValue | undefined {
  const levels = d.scale.levels ?? [];
  const hit = levels.find((l) => l.value === raw || (typeof raw === "string" && String(l.value) === raw.trim()));
  return hit?.value;
}

/** The value the reply gives each of the unit's dimensions; a reply without one, or with a value not in the rubric, is malformed. */
export function parseReply(content: string, unit: JudgeUnit): Map<string, LevelValue> {
  const found = jsonObjectIn(content);
  if (!found) throw new MalformedReply(`the reply has no JSON object: ${JSON.stringify(content.slice(0, 120))}`);
  let obj: unknown;
  try {
    obj = JSON.parse(found.text);
  } catch {
    throw new MalformedReply(`the reply's JSON does not parse: ${JSON.stringify(found.text.slice(0, 120))}`);
  }
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) throw new MalformedReply("the reply is not a JSON object");
  const values = new Map<string, LevelValue>();
  const problems: string[] = [];
  for (const d of unit.dimensions) {
    const raw = (obj as Record<string, unknown>)[d.key];
    if (raw === undefined) {
      problems.push(`no value for "${d.key}"`);
      continue;
    }
    const v = levelOf(d, raw);
    if (v === undefined) problems.push(`"${d.key}": ${JSON.stringify(raw).slice(0, 40)} is not one of its levels`);
    else values.set(d.key, v);
  }
  if (problems.length) throw new MalformedReply(`malformed reply: ${problems.join("; ")}`);
  return values;
}

/** Where, in the reply, the value of each dimension starts (after a string value's opening quote). */
function valueOffsets(content: string, unit: JudgeUnit): Map<string, number> {
  const found = jsonObjectIn(content)!;
  const offsets = new Map<string, number>();
  for (const d of unit.dimensions) {
    const re = new RegExp(`"${d.key}"\\s*:\\s*"?`, "g");
    re.lastIndex = found.start;
    const m = re.exec(content);
    if (m) offsets.set(d.key, m.index + m[0].length);
  }
  return offsets;
}

const stripValue = (s: string) => s.replace(/^[\s"]+/, "").replace(/[\s",}]+$/, "");

/**
 * The probability of each level of each dimension, read from the top
 * alternatives of the token at which its value starts, renormalised over the
 * rubric's levels (the alternatives that are not a level, and the mass below
 * the top k, are dropped). Levels that need more than one token cannot be
 * read this way: the caller then uses sampling.
 */
export function levelProbabilities(content: string, logprobs: readonly TokenLogprob[], unit: JudgeUnit, chosen: ReadonlyMap<string, LevelValue>): Map<string, Record<string, number>> {
  if (logprobs.map((t) => t.token).join("") !== content) throw new MalformedReply("the logprobs' tokens do not spell the reply");
  const starts: number[] = [];
  let at = 0;
  for (const t of logprobs) {
    starts.push(at);
    at += t.token.length;
  }
  const offsets = valueOffsets(content, unit);
  const out = new Map<string, Record<string, number>>();
  for (const d of unit.dimensions) {
    const off = offsets.get(d.key)!;
    let i = starts.length - 1;
    while (i > 0 && starts[i] > off) i--;
    const tok = logprobs[i];
    const before = content.slice(starts[i], off);
    const mass = new Map<string, number>();
    const alternatives = [...(tok.top_logprobs ?? [])];
    if (!alternatives.some((a) => a.token === tok.token)) alternatives.push({ token: tok.token, logprob: tok.logprob });
    for (const a of alternatives) {
      if (!a.token.startsWith(before)) continue;
      const text = stripValue(a.token.slice(before.length));
      const level = (d.scale.levels ?? []).find((l) => String(l.value) === text);
      if (level) mass.set(String(level.value), (mass.get(String(level.value)) ?? 0) + Math.exp(a.logprob));
    }
    const chosenKey = String(chosen.get(d.key));
    if (!mass.has(chosenKey)) throw new MalformedReply(`"${d.key}": the level's probability is not in the logprobs (a level of several tokens? run in sampling mode)`);
    const total = [...mass.values()].reduce((s, p) => s + p, 0);
    const probs: Record<string, number> = {};
    for (const l of d.scale.levels ?? []) probs[String(l.value)] = (mass.get(String(l.value)) ?? 0) / total;
    out.set(d.key, probs);
  }
  return out;
}

/** The distribution of sampled values per level (each sample counts 1/n). */
export function sampleProbabilities(d: RubricDimension, samples: readonly LevelValue[]): Record<string, number> {
  const probs: Record<string, number> = {};
  for (const l of d.scale.levels ?? []) probs[String(l.value)] = samples.filter((s) => s === l.value).length / samples.length;
  return probs;
}

/** The most probable level; a tie goes to the lower level (paper 002: ties resolved to the lower level), i.e. the earlier one of the scale. */
export function mostProbableLevel(d: RubricDimension, probs: Record<string, number>): LevelValue {
  let best = d.scale.levels![0];
  for (const l of d.scale.levels!) if ((probs[String(l.value)] ?? 0) > (probs[String(best.value)] ?? 0) + 1e-12) best = l;
  return best.value;
}
