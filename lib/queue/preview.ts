import { paragraphsOf } from "@/lib/grading/question-parts";

/**
 * What the grader's queue shows of a question. Questions of one study often
 * open alike (the same patient context, then the question), so their first
 * line tells them apart poorly: the lead's chosen preview (the import's
 * preview column), else the question's last paragraph, which is usually the
 * question itself. Question text only: it never names a model.
 */
export const PREVIEW_MAX = 300;

export function questionPreview(question: string, preview: string | null | undefined): string {
  const chosen = preview?.trim();
  const text = chosen ? chosen : plain(paragraphsOf(question).at(-1) ?? "");
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > PREVIEW_MAX ? `${flat.slice(0, PREVIEW_MAX - 1).trimEnd()}…` : flat;
}

/** Markdown heading, quote and bold marks dropped: the queue shows plain text. */
function plain(paragraph: string): string {
  return paragraph
    .split("\n")
    .map((line) => line.replace(/^\s*(#{1,6}\s+|>\s?)/, ""))
    .join(" ")
    .replace(/(\*\*|__)(.+?)\1/g, "$2");
}
