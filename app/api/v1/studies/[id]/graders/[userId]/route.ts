import { apiRoute } from "@/lib/server/api-route";
import { LEAD_ROLES } from "@/lib/auth/roles";
import { isUuid } from "@/lib/db/uuid";
import { ApiError } from "@/lib/server/errors";
import { deactivateGrader } from "@/lib/graders/service";
import { requireStudyForLead } from "@/lib/studies/access";

/** Takes the grader off this study; DELETE because the membership ends, though its row stays for the grades' sake. */
export const DELETE = apiRoute<{ id: string; userId: string }>(LEAD_ROLES, async ({ user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  if (!isUuid(params.userId)) throw new ApiError(404, "no grader with that id in this study");
  return deactivateGrader({ id: user.id, requestId }, study.id, params.userId);
});
