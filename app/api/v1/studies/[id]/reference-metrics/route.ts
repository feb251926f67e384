import { LEAD_ROLES } from "@/lib/auth/roles";
import { referenceMetricsSummary } from "@/lib/reference-metrics/summary";
import { apiRoute } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

/** BLEU, ROUGE-1 and ROUGE-L per model and specialty (lib/reference-metrics). Results: leads of the study and admins only. */
export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  return Response.json({ rows: await referenceMetricsSummary(study.id) }, { headers: { "cache-control": "no-store" } });
});
