/**
 * A clinical question as graders read it: often a long context (an EHR
 * extract, the patient's message) and then the question itself in its last
 * paragraph. Pure text work, shared by the grading page (which folds a long
 * context) and the queue (which previews the last paragraph).
 */

/** The question's paragraphs (split at blank lines), trimmed, empty ones left out. */
export function paragraphsOf(question: string): string[] {
  return question
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/** Words in a text, roughly (runs of non-space). */
export const wordCount = (text: string) => (text.match(/\S+/g) ?? []).length;

/** A context this long (in words) folds away on the grading page; shorter questions show whole. */
export const LONG_CONTEXT_WORDS = 60;

/**
 * The question split into its context and its last paragraph, when the
 * context is long enough to fold; null otherwise (shown whole). A fenced code
 * block may hold blank lines, so a question with one is never split.
 */
export function splitQuestion(question: string): { context: string; ask: string; contextWords: number } | null {
  if (question.includes("```") || question.includes("~~~")) return null;
  const paragraphs = paragraphsOf(question);
  if (paragraphs.length < 2) return null;
  const context = paragraphs.slice(0, -1).join("\n\n");
  const contextWords = wordCount(context);
  if (contextWords < LONG_CONTEXT_WORDS) return null;
  return { context, ask: paragraphs[paragraphs.length - 1], contextWords };
}
