import { getDb } from "@/lib/db/client";

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
      specialties: { select: { specialty: { select: { name: true } } } },
    },
  });
  return rows.map(({ specialties, ...u }) => ({ ...u, specialties: specialties.map((s) => s.specialty.name) }));
}
