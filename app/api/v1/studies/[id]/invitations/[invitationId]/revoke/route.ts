import { apiRoute } from "@/lib/server/api-route";
import { LEAD_ROLES } from "@/lib/auth/roles";
import { isUuid } from "@/lib/db/uuid";
import { ApiError } from "@/lib/errors/api-error";
import { revokeInvitation } from "@/lib/mail/invitations";
import { requireStudyForLead } from "@/lib/studies/access";

type Params = { id: string; invitationId: string };

export const POST = apiRoute<Params>(LEAD_ROLES, async ({ user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  if (!isUuid(params.invitationId)) throw new ApiError(404, "no invitation with that id in this study");
  return revokeInvitation({ id: user.id, requestId }, study.id, params.invitationId);
});
