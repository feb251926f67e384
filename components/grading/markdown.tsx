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

export function Markdown({ children, className }: { children: string; className?: string }) {
  return <div className={cn("answer-prose", className)}>{compiler(children, OPTIONS)}</div>;
}
