/** The study's grader-facing title lives with the blinding rules (lib/blinding/grader-title.ts), where mail can use it too. */
export { graderFacingTitle, graderFacingTitleSql } from "@/lib/blinding/grader-title";
