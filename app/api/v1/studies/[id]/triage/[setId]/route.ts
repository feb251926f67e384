import { LEAD_ROLES } from "@/lib/auth/roles";
import { setDecisionBody } from "@/lib/governance/contract";
import { decideSet } from "@/lib/governance/service";
import { apiRoute, readJson } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

export const PUT = apiRoute<{ id: string; setId: string }>(LEAD_ROLES, async ({ req, user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  return decideSet(study.id, params.setId, await readJson(req, setDecisionBody), { id: user.id, requestId });
});
