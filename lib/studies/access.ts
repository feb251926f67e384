import { getDb } from "@/lib/db/client";
import { isUuid } from "@/lib/db/uuid";
import { ApiError } from "@/lib/errors/api-error";
import type { CurrentUser } from "@/lib/server/current-user";
import { studyVisibilityFilter } from "./queries";

/**
 * The study, if this lead leads it (admins: any study). Anything else answers
 * 404, not 403, so a lead cannot even learn that another lead's study exists.
 */
export async function requireStudyForLead(user: Pick<CurrentUser, "id" | "role">, studyId: string) {
  if (!isUuid(studyId)) throw new ApiError(404, "study not found");
  const study = await getDb().study.findFirst({ where: { id: studyId, ...studyVisibilityFilter(user) } });
  if (!study) throw new ApiError(404, "study not found");
  return study;
}
