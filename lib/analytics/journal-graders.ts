import { graderPseudonym } from "@/lib/users/pseudonym";
import type { JournalBlock } from "./types";

/**
 * How the journal panel, its kappa heatmaps and their downloads name each grader: by the
 * study pseudonym the other lead views of grades use (escalations, set detail, exports),
 * never by name. A figure or CSV leaves the study (a paper's supplement, a slide); a
 * grader's name in it says who rated how.
 */
export function journalGraderNames(studyId: string, block: JournalBlock | null): Record<string, string> {
  const ids = new Set(block?.rubrics.flatMap((r) => r.agreement.flatMap((a) => a.raters)) ?? []);
  return Object.fromEntries([...ids].sort().map((id) => [id, graderPseudonym(studyId, id)]));
}
