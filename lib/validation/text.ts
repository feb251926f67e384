import { z } from "zod";
// Before any schema here is made: the OpenAPI registry needs them extended (see the module).
import "@/lib/api/zod-openapi";

/**
 * The one rule for text that comes from outside (request bodies, query
 * parameters, sign-in, import files). PostgreSQL refuses NUL in text and
 * JSON (the query fails: a 500 unless refused here); the other control
 * characters are never typed by a person and only confuse whoever reads the
 * text later (terminals, spreadsheets); an unpaired surrogate has no UTF-8
 * form and would be stored as U+FFFD, changed without a word. So text with
 * any of them is refused with the field's name, never stripped silently.
 *
 * Pure zod, so the forms, the route handlers and the OpenAPI document share it.
 */

/** "line": names, emails, ids, filters; "multiline": free text, where tab, LF and CR are legitimate. */
export type TextKind = "line" | "multiline";

// Unicode's control characters (Cc): C0, DEL and C1.
const CONTROL_IN_LINE = /[\u0000-\u001F\u007F-\u009F]/;
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const codePoint = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;

/** Why this text cannot be taken as it is, or null when it can. */
export function textProblem(s: string, kind: TextKind = "multiline"): string | null {
  const control = (kind === "line" ? CONTROL_IN_LINE : CONTROL_IN_TEXT).exec(s);
  if (control) {
    const allowed = kind === "line" ? "" : " (only tab and line breaks are allowed)";
    return `contains the control character ${codePoint(control[0])} at character ${control.index + 1}${allowed}`;
  }
  const lone = typeof s.isWellFormed !== "function" || !s.isWellFormed() ? LONE_SURROGATE.exec(s) : null;
  if (lone) {
    return `contains an unpaired surrogate ${codePoint(lone[0])} at character ${lone.index + 1}, which is not valid Unicode`;
  }
  return null;
}

function refuse(kind: TextKind) {
  return (s: string, ctx: z.core.$RefinementCtx<string>) => {
    const problem = textProblem(s, kind);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  };
}

/** One line of text (names, emails, ids, filters), trimmed: no control characters at all. */
export function lineText(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).trim().superRefine(refuse("line"));
}

/** Free text (descriptions, comments, answers): tab, LF and CR allowed, no other control character. Not trimmed. */
export function multilineText(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).superRefine(refuse("multiline"));
}

export interface TextIssue {
  path: (string | number)[];
  message: string;
}

interface Visit {
  value: unknown;
  key: string | number | null;
  parent: Visit | null;
}

/** The path of a visit, from its last segments up (a hostile document may nest a million deep). */
function pathOf(v: Visit, keepLast = 64): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Visit | null = v; at && at.key !== null; at = at.parent) {
    if (path.length === keepLast) {
      path.push("…");
      break;
    }
    path.push(at.key);
  }
  return path.reverse();
}

/**
 * Every string (values and keys) of a parsed JSON document that `kind` refuses,
 * at most `max` of them: the guard of the shared request reading, so that no
 * route, whatever its schema, passes such text on to the database.
 */
export function textProblemsIn(value: unknown, kind: TextKind = "multiline", max = 20): TextIssue[] {
  const issues: TextIssue[] = [];
  const report = (at: Visit, problem: string, isKey: boolean) => {
    const path = pathOf(at);
    const name = isKey ? `the key ${JSON.stringify(at.key)}` : path.length ? path.join(".") : "the value";
    issues.push({ path, message: `${name} ${problem}` });
  };
  // Iterative, with parent links rather than copied paths: linear in the document however deep it nests.
  const stack: Visit[] = [{ value, key: null, parent: null }];
  while (stack.length > 0 && issues.length < max) {
    const at = stack.pop()!;
    const v = at.value;
    if (typeof v === "string") {
      const problem = textProblem(v, kind);
      if (problem) report(at, problem, false);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: at });
    } else if (v !== null && typeof v === "object") {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i];
        const visit = { value: child, key, parent: at };
        const problem = textProblem(key, kind);
        if (problem) report(visit, problem, true);
        else stack.push(visit);
      }
    }
  }
  return issues.slice(0, max);
}

/** A refinement for the free-form parts of a document (any JSON): every string and key in it must pass the rule. */
export function refuseBadTextIn<T>(value: T, ctx: z.core.$RefinementCtx<T>): void {
  for (const issue of textProblemsIn(value, "multiline", 5)) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
}
