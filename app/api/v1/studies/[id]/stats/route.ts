import { storedRubricKeys, storedRubrics } from "@/lib/rubrics/study-rubrics";
import { statsQuerySchema } from "@/lib/analytics/contract";
import { computeStudyStats } from "@/lib/analytics/study-stats";
import { LEAD_ROLES } from "@/lib/auth/roles";
import { apiRoute } from "@/lib/server/api-route";
import { ApiError } from "@/lib/errors/api-error";
import { requireStudyForLead } from "@/lib/studies/access";
import { readQuery } from "@/lib/studies/route-helpers";

/** The study dashboard's numbers (lib/analytics/study-stats.ts). Leads of the study and admins; graders 403, other leads 404. */
export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  const q = readQuery(req, statsQuerySchema);
  const keys = storedRubricKeys(study.rubrics);
  const foreign = (q.rubric ?? []).filter((r) => !keys.includes(r));
  if (foreign.length) throw new ApiError(422, "invalid query parameters", [{ path: "rubric", message: `this study does not use ${foreign.join(", ")} (it uses ${keys.join(", ")})` }]);
  if (q.measure && q.measure !== "total" && q.measure !== "dimensions") {
    const ordinal = storedRubrics(study.rubrics).flatMap((r) => r.dimensions.filter((d) => d.scale.kind === "ordinal").map((d) => d.key));
    if (!ordinal.includes(q.measure))
      throw new ApiError(422, "invalid query parameters", [{ path: "measure", message: `${q.measure} is not an ordinal dimension of this study's rubrics (choose total, dimensions, or one of ${[...new Set(ordinal)].join(", ")})` }]);
  }
  const stats = await computeStudyStats(study.id, { specialty: q.specialty, rubrics: q.rubric, models: q.models, journal: q.journal, measure: q.measure, pairwise: q.pairwise });
  if (!stats) throw new ApiError(404, "study not found");
  return Response.json(stats, { headers: { "cache-control": "no-store" } });
});
