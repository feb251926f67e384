import { GRADER_ROLES } from "@/lib/auth/roles";
import { preferenceFormSchema } from "@/lib/pairwise/contract-schemas";
import { assertOwnComparison, savePreferences } from "@/lib/pairwise/grading";
import { apiRoute, readJson } from "@/lib/server/api-route";

/** Submit or revise: the whole form, every axis answered. */
export const POST = apiRoute<{ id: string }>(GRADER_ROLES, async ({ req, user, params, requestId }) => {
  await assertOwnComparison(user.id, params.id);
  const body = await readJson(req, preferenceFormSchema, 256_000);
  return savePreferences(user.id, params.id, body, true, requestId);
});
