import { graderSensitivityOffThread } from "@/lib/grader-quality/sensitivity-run";
import { LEAD_ROLES } from "@/lib/auth/roles";
import { apiRoute } from "@/lib/server/api-route";
import { ApiError } from "@/lib/errors/api-error";
import { requireStudyForLead } from "@/lib/studies/access";

/** The headline figures without each grader in turn (lib/grader-quality/sensitivity.ts). Leads of the study and admins. */
export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  const result = await graderSensitivityOffThread(study.id);
  if (!result) throw new ApiError(404, "study not found");
  return Response.json(result, { headers: { "cache-control": "no-store" } });
});
