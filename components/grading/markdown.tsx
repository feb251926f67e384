import { compiler } from "markdown-to-jsx";
import { cn } from "@/lib/utils";

/**
 * Answers and reference answers are Markdown written by models or imported
 * from files: rendered with GFM (tables, strikethrough, task lists) straight to
 * React elements, never through HTML strings. Raw HTML in the source is shown
 * as literal text (so a grader sees exactly what the model wrote, `<script>`
 * included) and nothing of it is ever parsed or run; link and image addresses
 * with a javascript:, vbscript: or data: scheme are dropped.
 *
 * markdown-to-jsx rather than react-markdown: the unified pipeline took about
 * 1.5 ms per short answer and 3.5 ms per 1,200-character one, and the grading
 * page renders every answer on every view (bench/grading). Rendered by server
 * components only, so the parser never ships to the browser.
 */
const OPTIONS = { disableParsingRawHTML: true, forceBlock: true, forceWrapper: true, wrapper: null, disableFrontmatter: true } as const;

/**
 * Questions: the same parser and sanitising, but a heading in the question
 * is shown as a bold line of body text (the page's one h1 is "Question"), and
 * its line breaks are kept (question-prose: an EHR extract is written line by line).
 */
const HEADING = { component: "p", props: { className: "font-semibold" } } as const;
const QUESTION_OPTIONS = { ...OPTIONS, overrides: { h1: HEADING, h2: HEADING, h3: HEADING, h4: HEADING, h5: HEADING, h6: HEADING } } as const;

export function Markdown({ children, className, question = false }: { children: string; className?: string; question?: boolean }) {
  return <div className={cn("answer-prose", question && "question-prose", className)}>{compiler(children, question ? QUESTION_OPTIONS : OPTIONS)}</div>;
}
