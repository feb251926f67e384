import { apiRoute, readJson } from "@/lib/server/api-route";
import { LEAD_ROLES } from "@/lib/auth/roles";
import { QualitySettingsBody } from "@/lib/quality-tasks/contract";
import { updateQualitySettings } from "@/lib/quality-tasks/service";
import { requireStudyForLead } from "@/lib/studies/access";

/** Stores the gold, washout and calibration settings and deals what they ask for (audited). */
export const PUT = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  const body = await readJson(req, QualitySettingsBody);
  return Response.json(await updateQualitySettings({ id: user.id, requestId }, study.id, body));
});
