import type { Tx } from "@/lib/db/client";
import { specialtyIdsFor } from "@/lib/specialties/names";

/**
 * A grader's specialties are per study (StudyMemberSpecialty): what a study's
 * lead sets stays in that study, and matching and adjudicator choice read only
 * the study's list. The account's own list (UserSpecialty, an administrator's)
 * is only where a new membership's list starts when the lead gives none.
 */

/** Starts each grader's list in the study from their account's specialties (their membership rows must exist). */
export async function copyAccountSpecialties(tx: Tx, studyId: string, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO "StudyMemberSpecialty" ("studyId", "userId", "specialtyId")
    SELECT ${studyId}::uuid, us."userId", us."specialtyId" FROM "UserSpecialty" us WHERE us."userId" = ANY(${[...userIds]}::uuid[])
    ON CONFLICT DO NOTHING`;
}

/** The grader's specialties in the study, by name. */
export async function studySpecialtyNames(tx: Tx, studyId: string, userId: string): Promise<string[]> {
  const rows = await tx.studyMemberSpecialty.findMany({
    where: { studyId, userId },
    select: { specialty: { select: { name: true } } },
    orderBy: { specialty: { name: "asc" } },
  });
  return rows.map((r) => r.specialty.name);
}

/**
 * Makes the grader's specialties in the study exactly `names` (matched to
 * existing specialties whatever their case, new ones created); returns the
 * list as stored. Call it with the membership row locked or just created.
 */
export async function setStudySpecialties(tx: Tx, studyId: string, userId: string, names: readonly string[]): Promise<string[]> {
  const ids = [...(await specialtyIdsFor(tx, names)).values()];
  await tx.studyMemberSpecialty.deleteMany({ where: { studyId, userId, specialtyId: { notIn: ids } } });
  if (ids.length) await tx.studyMemberSpecialty.createMany({ data: ids.map((specialtyId) => ({ studyId, userId, specialtyId })), skipDuplicates: true });
  return studySpecialtyNames(tx, studyId, userId);
}
