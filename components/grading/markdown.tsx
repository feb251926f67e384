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

const PROSE =
  "text-[0.9375rem] leading-7 text-foreground break-words " +
  "[&_p]:my-3 [&>*:first-child]:mt-0 [&>*:last-child]:mb-0 " +
  "[&_h1]:mt-5 [&_h1]:mb-2 [&_h1]:text-lg [&_h1]:font-semibold [&_h2]:mt-5 [&_h2]:mb-2 [&_h2]:text-base [&_h2]:font-semibold " +
  "[&_h3]:mt-4 [&_h3]:mb-2 [&_h3]:text-[0.9375rem] [&_h3]:font-semibold [&_h4]:mt-4 [&_h4]:mb-1 [&_h4]:font-semibold " +
  "[&_ul]:my-3 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-3 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:my-1 [&_li]:pl-1 [&_li>p]:my-1 " +
  "[&_strong]:font-semibold [&_em]:italic [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-2 " +
  "[&_blockquote]:my-3 [&_blockquote]:border-l-4 [&_blockquote]:border-border [&_blockquote]:pl-4 [&_blockquote]:text-muted-foreground " +
  "[&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.85em] " +
  "[&_pre]:my-3 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-muted [&_pre]:p-3 [&_pre_code]:bg-transparent [&_pre_code]:p-0 " +
  "[&_table]:my-3 [&_table]:w-full [&_table]:border-collapse [&_table]:text-sm [&_th]:border [&_th]:border-border [&_th]:bg-muted [&_th]:px-2 [&_th]:py-1 [&_th]:text-left " +
  "[&_td]:border [&_td]:border-border [&_td]:px-2 [&_td]:py-1 [&_hr]:my-4 [&_hr]:border-border";

export function Markdown({ children, className }: { children: string; className?: string }) {
  return <div className={cn(PROSE, className)}>{compiler(children, OPTIONS)}</div>;
}
