import { apiRoute, readJson } from "@/lib/server/api-route";
import { LEAD_ROLES } from "@/lib/auth/roles";
import { QualitySetBody } from "@/lib/quality-tasks/contract";
import { markQualitySet } from "@/lib/quality-tasks/service";
import { requireStudyForLead } from "@/lib/studies/access";

/** Marks a set nobody was assigned as a calibration or gold set, with its expected scores (audited). */
export const PUT = apiRoute<{ id: string; setId: string }>(LEAD_ROLES, async ({ req, user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  const body = await readJson(req, QualitySetBody);
  return Response.json(await markQualitySet({ id: user.id, requestId }, study.id, params.setId, body));
});
