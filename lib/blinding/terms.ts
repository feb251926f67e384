/** The words that would unblind graders (model names and versions), and how text is searched for them. */

/** Words shorter than this match too much ordinary text to be worth flagging. */
const MIN_TERM = 3;

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The distinct terms to look for: model names, versions and the lead's words, longest first. */
export function mentionTerms(models: { name: string; version: string | null }[], extra: readonly string[] = []): string[] {
  const all = [...models.flatMap((m) => [m.name, m.version ?? ""]), ...extra].map((t) => t.trim()).filter((t) => t.length >= MIN_TERM);
  const seen = new Map<string, string>();
  for (const t of all) if (!seen.has(t.toLowerCase())) seen.set(t.toLowerCase(), t);
  return [...seen.values()].sort((a, b) => b.length - a.length);
}

/**
 * A term as a PostgreSQL regular expression matching it case-insensitively
 * as a whole word (so "Gemini" does not match "Geminid"); the JavaScript
 * excerpt uses the same boundaries.
 */
export function termPattern(term: string): string {
  return `(?<![[:alnum:]_])${escapeRegex(term)}(?![[:alnum:]_])`;
}

/** The same whole-word match in JavaScript, for the excerpts and the redaction's preview. */
export function wordRegExp(term: string, flags = "iu"): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegex(term)}(?![\\p{L}\\p{N}_])`, flags);
}

