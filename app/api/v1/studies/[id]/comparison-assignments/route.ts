import { LEAD_ROLES } from "@/lib/auth/roles";
import { dealComparisons } from "@/lib/pairwise/assign-service";
import { comparisonAssignmentRunSchema } from "@/lib/pairwise/contract-schemas";
import { apiRoute, readJson } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

export const POST = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  const body = await readJson(req, comparisonAssignmentRunSchema, 16_000);
  return dealComparisons(study.id, body, user.id, requestId);
});
