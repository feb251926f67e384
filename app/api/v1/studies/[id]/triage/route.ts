import { LEAD_ROLES } from "@/lib/auth/roles";
import { triageRuleBody } from "@/lib/governance/contract";
import { setTriageRule, triageReport } from "@/lib/governance/service";
import { apiRoute, readJson } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  return triageReport(study.id);
});

export const PUT = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  const { rule } = await readJson(req, triageRuleBody);
  return { rule: await setTriageRule(study.id, rule, { id: user.id, requestId }) };
});
