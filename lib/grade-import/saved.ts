import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { GradeImportMappingSchema, type GradeImportMapping } from "./mapping";

/** Mappings saved per study, by name, to reuse on the next file of the same layout. */

const MAX_SAVED = 50;

export async function listMappings(studyId: string) {
  const rows = await getDb().gradeImportMapping.findMany({ where: { studyId }, orderBy: { name: "asc" }, take: MAX_SAVED });
  return rows.flatMap((r) => {
    const m = GradeImportMappingSchema.safeParse(r.mapping);
    return m.success ? [{ name: r.name, mapping: m.data, updatedAt: r.updatedAt.toISOString() }] : [];
  });
}

export async function saveMapping(studyId: string, input: { name: string; mapping: GradeImportMapping }) {
  const mapping = input.mapping as unknown as Prisma.InputJsonValue;
  await getDb().gradeImportMapping.upsert({
    where: { studyId_name: { studyId, name: input.name } },
    create: { studyId, name: input.name, mapping },
    update: { mapping },
  });
  return input;
}
