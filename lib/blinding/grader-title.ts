import { createHash } from "node:crypto";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * What graders see of a study's identity. The study's name is the lead's, and
 * leads name studies after the system under test: graders see the study's
 * grader-facing title instead, or, when the lead left it empty, a neutral
 * "Study 3F9A" that still tells two studies apart. The SQL and the function
 * give the same title.
 */
export function graderFacingTitle(study: { id: string; graderTitle: string }): string {
  return study.graderTitle.trim() || `Study ${createHash("md5").update(study.id).digest("hex").slice(0, 4).toUpperCase()}`;
}

/** The same title in SQL, for a study row under `alias`. */
export function graderFacingTitleSql(alias: string): Prisma.Sql {
  const t = Prisma.raw(`${alias}."graderTitle"`);
  const id = Prisma.raw(`${alias}.id`);
  return Prisma.sql`coalesce(nullif(btrim(${t}), ''), 'Study ' || upper(left(md5(${id}::text), 4)))`;
}
