import { graderQuality } from "@/lib/grader-quality/service";
import { LEAD_ROLES } from "@/lib/auth/roles";
import { apiRoute } from "@/lib/server/api-route";
import { ApiError } from "@/lib/errors/api-error";
import { requireStudyForLead } from "@/lib/studies/access";

/** Each grader's quality signals (lib/grader-quality). Leads of the study and admins; graders 403, other leads 404. */
export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  const report = await graderQuality(study.id);
  if (!report) throw new ApiError(404, "study not found");
  return Response.json(report, { headers: { "cache-control": "no-store" } });
});
