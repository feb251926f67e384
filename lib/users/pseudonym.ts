import { createHash } from "node:crypto";

/**
 * A grader's stable pseudonym within one study (e.g. "Grader 7F3A"): leads can
 * tell graders apart on escalation pages and in exports without names, and the
 * same person gets a different pseudonym in another study.
 */
export function graderPseudonym(studyId: string, userId: string): string {
  return `Grader ${createHash("sha256").update(`${studyId}:${userId}`).digest("hex").slice(0, 4).toUpperCase()}`;
}
