import { getDb } from "@/lib/db/client";
import { openWorkOf } from "./open-work";

/**
 * Every user, with the unsubmitted work each holds (what deactivating them
 * leaves behind). `external`: a rater of imported grades (lib/grade-import), a
 * pseudonym rather than an account, which the admin page lists apart.
 */
export async function listUsers() {
  const rows = await getDb().user.findMany({
    orderBy: [{ role: "asc" }, { name: "asc" }],
    select: {
      id: true,
      email: true,
      name: true,
      role: true,
      active: true,
      lastLoginAt: true,
      externalStudyId: true,
      externalStudy: { select: { name: true } },
      specialties: { select: { specialty: { select: { name: true } } } },
    },
  });
  const work = await openWorkOf(getDb(), rows.filter((r) => !r.externalStudyId).map((r) => r.id));
  return rows.map(({ specialties, externalStudyId, externalStudy, ...u }) => ({
    ...u,
    specialties: specialties.map((s) => s.specialty.name),
    external: externalStudyId !== null,
    externalStudyName: externalStudy?.name ?? null,
    openWork: work.get(u.id) ?? [],
  }));
}
