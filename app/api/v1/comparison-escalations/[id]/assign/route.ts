import { LEAD_ROLES } from "@/lib/auth/roles";
import { assignEscalationSchema } from "@/lib/escalation/contract";
import { ApiError } from "@/lib/errors/api-error";
import { assignComparisonEscalationByHand, studyOfComparisonEscalation } from "@/lib/pairwise/escalation-queries";
import { apiRoute, readJson } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

export const POST = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params, requestId }) => {
  const studyId = await studyOfComparisonEscalation(params.id);
  if (!studyId) throw new ApiError(404, "escalation not found");
  await requireStudyForLead(user, studyId); // another lead's escalation: 404
  const { graderId } = await readJson(req, assignEscalationSchema);
  return assignComparisonEscalationByHand(params.id, graderId, user.id, requestId);
});
