import { getDb } from "@/lib/db/client";

export interface GraderCandidate {
  email: string;
  name: string;
  specialties: string[];
}

/**
 * Active grader accounts of this instance that are not (active) graders of
 * the study: what the lead may pick from to add in bulk. At most `limit`,
 * by name.
 */
export async function listGraderCandidates(studyId: string, limit = 500): Promise<GraderCandidate[]> {
  const rows = await getDb().user.findMany({
    where: { role: "GRADER", active: true, memberships: { none: { studyId, active: true } } },
    select: { email: true, name: true, specialties: { select: { specialty: { select: { name: true } } } } },
    orderBy: [{ name: "asc" }, { email: "asc" }],
    take: limit,
  });
  return rows.map((r) => ({ email: r.email, name: r.name, specialties: r.specialties.map((s) => s.specialty.name).sort() }));
}
