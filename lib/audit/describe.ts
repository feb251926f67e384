/**
 * An audit event's before and after as a reader wants them: one line per
 * field that changed, "before -> after", with ids replaced by the names they
 * stand for. Pure (names come in a map), shared by the audit page and tests.
 */

export interface ChangeLine {
  field: string;
  before: string | null;
  after: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every UUID string anywhere in a JSON value. */
export function uuidsIn(value: unknown, out: Set<string> = new Set()): Set<string> {
  if (typeof value === "string") {
    if (UUID.test(value)) out.add(value.toLowerCase());
  } else if (Array.isArray(value)) for (const v of value) uuidsIn(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) uuidsIn(v, out);
  return out;
}

const FIELD: Record<string, string> = {
  userId: "user",
  graderId: "grader",
  adjudicatorId: "adjudicator",
  failedSignIns: "failed sign-ins",
  passwordGenerated: "password generated",
  passwordReset: "password reset",
  sessionsEnded: "sessions ended",
  gradersPerSet: "graders per set",
  showReferenceAnswer: "reference answer shown",
  askContradictions: "graders asked about contradictions",
  contradiction: "contradiction",
  matchSpecialty: "match specialty",
  // The study's choice between a rubric's headline and its overallHeadline (the column keeps its first name).
  safeLlmScoring: "scoring per answer or overall",
  graderTitle: "grader-facing title",
  openAssignments: "open assignments",
  openAdjudications: "of them adjudications",
};

const label = (path: string) =>
  path
    .split(".")
    .map((p) => FIELD[p] ?? p)
    .join(" · ");

function scalar(value: unknown, names: ReadonlyMap<string, string>): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return UUID.test(value) ? (names.get(value.toLowerCase()) ?? `${value.slice(0, 8)}…`) : value === "" ? '""' : value;
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return String(value);
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== "object")) return value.length ? value.map((v) => scalar(v, names)).join(", ") : "none";
  return JSON.stringify(value);
}

/** Flattens a value into path -> text; arrays of objects with a `cell` (grades) or `dimension` key are keyed by it. */
function flatten(value: unknown, names: ReadonlyMap<string, string>, prefix = "", out: Map<string, string> = new Map(), depth = 0): Map<string, string> {
  if (value && typeof value === "object" && !Array.isArray(value) && depth < 4) {
    for (const [k, v] of Object.entries(value)) flatten(v, names, prefix ? `${prefix}.${k}` : k, out, depth + 1);
    return out;
  }
  if (Array.isArray(value) && value.some((v) => v && typeof v === "object") && depth < 4) {
    value.forEach((item, i) => {
      const o = (item ?? {}) as Record<string, unknown>;
      const key = typeof o.cell === "string" ? o.cell : typeof o.dimension === "string" ? [o.rubric, o.dimension].filter(Boolean).join("/") : String(i + 1);
      const rest = Object.fromEntries(Object.entries(o).filter(([k]) => k !== "cell" && !(typeof o.cell !== "string" && (k === "dimension" || k === "rubric"))));
      const keys = Object.keys(rest);
      if (keys.length === 1) out.set(`${prefix}.${key}`, scalar(rest[keys[0]], names));
      else flatten(rest, names, `${prefix}.${key}`, out, depth + 1);
    });
    return out;
  }
  out.set(prefix || "value", scalar(value, names));
  return out;
}

/** The fields that differ between before and after (all of after for a creation), ids named. */
export function describeChanges(before: unknown, after: unknown, names: ReadonlyMap<string, string>): ChangeLine[] {
  const b = before === null || before === undefined ? new Map<string, string>() : flatten(before, names);
  const a = after === null || after === undefined ? new Map<string, string>() : flatten(after, names);
  const lines: ChangeLine[] = [];
  for (const key of new Set([...b.keys(), ...a.keys()])) {
    const from = b.get(key) ?? null;
    const to = a.get(key) ?? null;
    if (from === to) continue;
    lines.push({ field: label(key), before: from, after: to });
  }
  return lines;
}
