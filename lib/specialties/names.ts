import type { Tx } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { SPECIALTY_NAMES_LOCK } from "./lock";

/** How specialty names are compared everywhere: "ophthalmology " is the specialty "Ophthalmology". */
export const specialtyKey = (name: string) => name.trim().toLowerCase();

export { SPECIALTY_NAMES_LOCK };

/**
 * The specialty of each name, matched case-insensitively, as the importer
 * matches them; a name seen for the first time is created as typed. Without
 * this, a grader registered with "ophthalmology" and items imported under
 * "Ophthalmology" would be two specialties, and matching graders to items by
 * specialty would silently find no one. The database refuses a second case of
 * a name (a unique index on lower(name)); creating is also serialised by a
 * transaction-scoped lock, so two requests adding "Cardiology" and
 * "cardiology" at the same moment make one specialty without either failing.
 *
 * Returns a map from each name's key (`specialtyKey`) to the specialty's id.
 */
export async function specialtyIdsFor(tx: Tx, names: Iterable<string>): Promise<Map<string, string>> {
  const byKey = new Map<string, string>();
  for (const n of names) if (n.trim()) byKey.set(specialtyKey(n), byKey.get(specialtyKey(n)) ?? n.trim());
  const ids = new Map<string, string>();
  if (byKey.size === 0) return ids;
  const keys = [...byKey.keys()];
  const find = async () => {
    const rows = await tx.$queryRaw<{ key: string; id: string }[]>(Prisma.sql`
      SELECT DISTINCT ON (lower(name)) lower(name) AS key, id FROM "Specialty"
      WHERE lower(name) = ANY(${keys}::text[]) ORDER BY lower(name), name`);
    for (const r of rows) ids.set(r.key, r.id);
  };
  await find();
  const missing = keys.filter((k) => !ids.has(k));
  if (missing.length === 0) return ids;
  await tx.$executeRawUnsafe(SPECIALTY_NAMES_LOCK);
  await find(); // another transaction may have created some while this one waited
  const toCreate = keys.filter((k) => !ids.has(k)).map((k) => byKey.get(k)!);
  if (toCreate.length) {
    const rows = await tx.$queryRaw<{ key: string; id: string }[]>(Prisma.sql`
      INSERT INTO "Specialty" (id, name) SELECT gen_random_uuid(), n FROM unnest(${toCreate}::text[]) AS n
      ON CONFLICT ((lower(name))) DO UPDATE SET name = "Specialty".name RETURNING lower(name) AS key, id`);
    for (const r of rows) ids.set(r.key, r.id);
  }
  return ids;
}
