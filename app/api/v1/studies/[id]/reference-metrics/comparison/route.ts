import { LEAD_ROLES } from "@/lib/auth/roles";
import { ApiError } from "@/lib/errors/api-error";
import { expertMeasures } from "@/lib/metric-comparison/assemble";
import { comparisonQuerySchema } from "@/lib/metric-comparison/contract";
import { metricComparison } from "@/lib/metric-comparison/service";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { apiRoute } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";
import { readQuery } from "@/lib/studies/route-helpers";

/** Reference-based metrics beside the experts' final scores (lib/metric-comparison). Leads of the study and admins; graders 403, other leads 404. */
export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  const q = readQuery(req, comparisonQuerySchema);
  if (q.measure) {
    const ids = expertMeasures(storedRubrics(study.rubrics)).measures.map((m) => m.id);
    if (!ids.includes(q.measure))
      throw new ApiError(422, "invalid query parameters", [
        { path: "measure", message: `${q.measure} is not an ordinal dimension or total of this study's rubrics (choose one of ${ids.join(", ") || "none: the rubrics have none"})` },
      ]);
  }
  const result = await metricComparison(study.id, { measure: q.measure });
  if (!result) throw new ApiError(404, "study not found");
  return Response.json(result, { headers: { "cache-control": "no-store" } });
});
