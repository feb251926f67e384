import { LEAD_ROLES } from "@/lib/auth/roles";
import { harmReviewBody } from "@/lib/harm/contract";
import { reviewHarmFlag } from "@/lib/harm/service";
import { apiRoute, readJson } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

export const PATCH = apiRoute<{ id: string; assignmentId: string }>(LEAD_ROLES, async ({ req, user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  return reviewHarmFlag(study.id, params.assignmentId, await readJson(req, harmReviewBody), user.id, requestId);
});
