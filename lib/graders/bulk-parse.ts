import Papa from "papaparse";
import { bulkGraderEntrySchema, MAX_BULK_GRADERS, type BulkGraderEntry } from "./schema";

/**
 * What a lead pastes or uploads to add many graders at once, read line by
 * line so every problem names its line: `email`, or `email,name,specialties`
 * (specialties separated by `;` or `|`, or given as further columns), an
 * optional header line, blank lines skipped, a line of several emails adding
 * each. Pure: shared by the route and the form's preview.
 */
export interface BulkLine extends BulkGraderEntry {
  line: number;
}

export interface LineProblem {
  line: number;
  email?: string;
  message: string;
}

const looksLikeEmail = (s: string) => /^[^\s@,;]+@[^\s@,;]+$/.test(s.trim());

function fieldsOf(text: string): string[] {
  const delimiter = text.includes("\t") ? "\t" : text.includes(",") ? "," : text.includes(";") && !looksLikeEmail(text) ? ";" : ",";
  const parsed = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: false });
  return (parsed.data[0] ?? []).map((f) => f.trim());
}

export function problemText(p: LineProblem): string {
  return `line ${p.line}${p.email ? ` (${p.email})` : ""}: ${p.message}`;
}

/** The graders of a pasted or uploaded text, with each line's problems (none: every line can be tried). */
export function parseGraderLines(text: string): { entries: BulkLine[]; problems: LineProblem[] } {
  const entries: BulkLine[] = [];
  const problems: LineProblem[] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  let sawContent = false;
  for (const [i, raw] of lines.entries()) {
    const line = i + 1;
    if (!raw.trim()) continue;
    const fields = fieldsOf(raw);
    const first = !sawContent;
    sawContent = true;
    if (first && fields[0]?.toLowerCase() === "email") continue; // the header
    const filled = fields.filter(Boolean);
    const candidates: unknown[] =
      filled.length > 1 && filled.every(looksLikeEmail)
        ? filled.map((email) => ({ email }))
        : [
            {
              email: fields[0] ?? "",
              ...(fields[1] ? { name: fields[1] } : {}),
              ...(fields.length > 2
                ? {
                    specialties: fields
                      .slice(2)
                      .flatMap((f) => f.split(/[;|]/))
                      .map((s) => s.trim())
                      .filter(Boolean),
                  }
                : {}),
            },
          ];
    for (const candidate of candidates) {
      const parsed = bulkGraderEntrySchema.safeParse(candidate);
      const email = String((candidate as { email: string }).email || "") || undefined;
      if (parsed.success) entries.push({ ...parsed.data, line });
      else problems.push({ line, email, message: [...new Set(parsed.error.issues.map((x) => x.message))].join("; ") });
    }
  }
  if (entries.length + problems.length === 0) problems.push({ line: 1, message: "no graders: give one email per line" });
  if (entries.length > MAX_BULK_GRADERS) problems.push({ line: entries[MAX_BULK_GRADERS].line, message: `at most ${MAX_BULK_GRADERS} graders at once` });
  return { entries, problems };
}

/** The same checks for the JSON variant: each entry's 1-based number stands for its line. */
export function entriesFromJson(graders: BulkGraderEntry[]): BulkLine[] {
  return graders.map((g, i) => ({ ...g, line: i + 1 }));
}
