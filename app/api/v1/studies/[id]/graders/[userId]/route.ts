import { apiRoute } from "@/lib/server/api-route";
import { LEAD_ROLES } from "@/lib/auth/roles";
import { ApiError } from "@/lib/server/errors";
import { deactivateGrader } from "@/lib/graders/service";
import { requireStudyForLead } from "@/lib/studies/access";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Takes the grader off this study; DELETE because the membership ends, though its row stays for the grades' sake. */
export const DELETE = apiRoute<{ id: string; userId: string }>(LEAD_ROLES, async ({ user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  if (!UUID.test(params.userId)) throw new ApiError(404, "no grader with that id in this study");
  return deactivateGrader({ id: user.id, requestId }, study.id, params.userId);
});
