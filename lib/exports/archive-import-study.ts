import { randomBytes } from "node:crypto";
import type pg from "pg";
import { normaliseEmail } from "@/lib/auth/login";
import { isUuid } from "@/lib/db/uuid";
import type { Role } from "@/lib/generated/prisma/enums";
import type { ArchiveChecker } from "./archive-check";
import { writeStudyDesign } from "./archive-comparisons";
import { archiveRubrics } from "./archive-rubrics";
import type { StudyArchive } from "./contract";

/** The study row and the admin's grader bindings of an archive import (./archive-import.ts). */

const dn = (s: string | null) => (s === null ? null : new Date(s).toISOString());

/** The study itself, under a temporary slug (the import names it at the end), with its pairwise design. */
export async function writeArchivedStudy(client: pg.ClientBase, studyId: string, s: StudyArchive["study"], actorId: string): Promise<void> {
  // Grader-quality settings: the schema's defaults where the archive has none.
  const q = s.quality ?? { goldRate: null, goldSeed: null, washoutShare: 0, washoutDays: 0, washoutSeed: null, calibrationRequired: false, calibrationPassShare: 0.8, calibrationRoundSize: 5 };
  await client.query(
    `INSERT INTO "Study" (id, name, slug, description, rubrics, repetitions, "gradersPerSet", thresholds, "showReferenceAnswer", "matchSpecialty",
                          "safeLlmScoring", "assignmentSeed", status, "openedAt", "closedAt", "createdById", "graderTitle", "escalationRules", "updatedAt", "assignmentDesign",
                          "askContradictions", "triageRule", "goldRate", "goldSeed", "washoutShare", "washoutDays", "washoutSeed", "calibrationRequired", "calibrationPassShare",
                          "calibrationRoundSize")
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8::jsonb, $9, $10, $11::"SafeLlmScoring", $12, $13::"StudyStatus", $14, $15, $16, $17, $18::jsonb, now(), $19::"AssignmentDesign",
             $20, $21::jsonb, $22, $23, $24, $25, $26, $27, $28, $29)`,
    [
      studyId,
      s.name,
      `importing-${randomBytes(8).toString("hex")}`,
      s.description,
      JSON.stringify(archiveRubrics(s.rubrics)),
      s.repetitions,
      s.gradersPerSet,
      JSON.stringify(s.thresholds),
      s.showReferenceAnswer,
      s.matchSpecialty,
      s.safeLlmScoring,
      s.assignmentSeed,
      s.status,
      dn(s.openedAt),
      dn(s.closedAt),
      actorId,
      s.graderTitle,
      JSON.stringify(s.escalationRules ?? {}),
      s.assignmentDesign,
      s.askContradictions,
      s.triageRule ? JSON.stringify(s.triageRule) : null,
      q.goldRate,
      q.goldSeed,
      q.washoutShare,
      q.washoutDays,
      q.washoutSeed,
      q.calibrationRequired,
      q.calibrationPassShare,
      q.calibrationRoundSize,
    ],
  );
  await writeStudyDesign(client, studyId, s);
}

/**
 * The admin's bindings of document graders to existing grader accounts,
 * checked (each problem added to the checker's list).
 */
export async function archiveBindings(client: pg.ClientBase, map: readonly { grader: string; account: string }[], checker: ArchiveChecker): Promise<Map<string, { id: string; email: string }>> {
  const bound = new Map<string, { id: string; email: string }>();
  if (!map.length) return bound;
  const ids = map.filter((m) => isUuid(m.account)).map((m) => m.account.toLowerCase());
  const emails = map.filter((m) => !isUuid(m.account)).map((m) => normaliseEmail(m.account));
  const { rows: accounts } = await client.query<{ id: string; email: string; role: Role }>(
    `SELECT id::text, email, role::text FROM "User" WHERE id = ANY($1::uuid[]) OR email = ANY($2::text[])`,
    [ids, emails],
  );
  const used = new Map<string, string>();
  const graders = new Set<string>();
  map.forEach((m, i) => {
    const at = `map[${i}]`;
    const account = isUuid(m.account) ? accounts.find((a) => a.id === m.account.toLowerCase()) : accounts.find((a) => a.email === normaliseEmail(m.account));
    if (!checker.graderIds.has(m.grader)) return checker.add(at, `no grader ${m.grader} in the document's graders`);
    if (graders.has(m.grader)) return checker.add(at, `grader ${m.grader} is mapped twice`);
    graders.add(m.grader);
    if (!account) return checker.add(at, `no account ${m.account}`);
    if (account.role !== "GRADER") return checker.add(at, `${m.account} is not a grader account`);
    if (used.has(account.id)) return checker.add(at, `${m.account} is already mapped to ${used.get(account.id)}`);
    used.set(account.id, m.grader);
    bound.set(m.grader, { id: account.id, email: account.email });
  });
  return bound;
}
