import { LEAD_ROLES } from "@/lib/auth/roles";
import { escalationsQuerySchema } from "@/lib/escalation/contract";
import { listComparisonEscalations } from "@/lib/pairwise/escalation-queries";
import { apiRoute } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";
import { readQuery } from "@/lib/studies/route-helpers";

export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  return { escalations: await listComparisonEscalations(study.id, readQuery(req, escalationsQuerySchema)) };
});
