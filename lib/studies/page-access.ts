import "server-only";
import { notFound } from "next/navigation";
import { cache } from "react";
import { ApiError } from "@/lib/errors/api-error";
import { LEAD_ROLES, requireUser } from "@/lib/server/page-guard";
import { requireStudyForLead } from "./access";

/**
 * The study of a /studies/[id] page, for its layout and page alike (cached
 * per request, so they share one query). Guards first; a study this lead does
 * not lead is the same 404 as one that does not exist.
 */
export const loadStudyForPage = cache(async (id: string) => {
  const user = await requireUser(LEAD_ROLES);
  try {
    return { user, study: await requireStudyForLead(user, id) };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  }
});
