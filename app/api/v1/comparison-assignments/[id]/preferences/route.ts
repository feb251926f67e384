import { GRADER_ROLES } from "@/lib/auth/roles";
import { preferenceFormSchema } from "@/lib/pairwise/contract-schemas";
import { assertOwnComparison, savePreferences } from "@/lib/pairwise/grading";
import { apiRoute, readJson } from "@/lib/server/api-route";

/** A draft: the whole form, axes may be missing. */
export const PUT = apiRoute<{ id: string }>(GRADER_ROLES, async ({ req, user, params, requestId }) => {
  await assertOwnComparison(user.id, params.id); // someone else's comparison: 404 whatever the body
  const body = await readJson(req, preferenceFormSchema, 256_000);
  return savePreferences(user.id, params.id, body, false, requestId);
});
