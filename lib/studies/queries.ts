import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { CurrentUser } from "@/lib/server/current-user";

/** Leads see the studies they lead; admins see all. Graders see none here. */
export function studyVisibilityFilter(user: Pick<CurrentUser, "id" | "role">): Prisma.StudyWhereInput {
  if (user.role === "ADMIN") return {};
  if (user.role === "LEAD") return { members: { some: { userId: user.id, role: "LEAD" } } };
  return { id: { in: [] } };
}

export interface StudySummary {
  id: string;
  name: string;
  slug: string;
  status: "DRAFT" | "OPEN" | "CLOSED";
  rubrics: ("SCORE" | "SAFE_LLM")[];
  repetitions: number;
  gradersPerSet: number;
  items: number;
  responseSets: number;
  createdAt: Date;
}

export async function listStudiesFor(user: Pick<CurrentUser, "id" | "role">): Promise<StudySummary[]> {
  const rows = await getDb().study.findMany({
    where: studyVisibilityFilter(user),
    orderBy: { createdAt: "desc" },
    select: {
      id: true,
      name: true,
      slug: true,
      status: true,
      rubrics: true,
      repetitions: true,
      gradersPerSet: true,
      createdAt: true,
      _count: { select: { items: true, responseSets: true } },
    },
  });
  return rows.map(({ _count, ...s }) => ({ ...s, items: _count.items, responseSets: _count.responseSets }));
}
