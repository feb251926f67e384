import { LEAD_ROLES } from "@/lib/auth/roles";
import { redactionBody } from "@/lib/import/contract";
import { redactAnswers } from "@/lib/import/redaction";
import { apiRoute, readJson } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

export const POST = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  return redactAnswers(study.id, await readJson(req, redactionBody), { id: user.id, requestId });
});
