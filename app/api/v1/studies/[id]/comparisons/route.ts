import { LEAD_ROLES } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { planComparisonsSchema } from "@/lib/pairwise/contract-schemas";
import { comparisonPlanSummary, planStudyComparisons } from "@/lib/pairwise/plan-service";
import { apiRoute, readJson } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

export const POST = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  const body = await readJson(req, planComparisonsSchema, 16_000);
  return planStudyComparisons(study.id, body, user.id, requestId);
});

export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  return comparisonPlanSummary(getDb(), study.id);
});
