import { LEAD_ROLES } from "@/lib/auth/roles";
import { ApiError } from "@/lib/errors/api-error";
import { judgePreferenceComparisons } from "@/lib/pairwise/judge-agreement";
import { apiRoute } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

type Params = { id: string };

/** A pairwise study's judges against the panel (leads of the study and admins; model names of judges only). */
export const GET = apiRoute<Params>(LEAD_ROLES, async ({ user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  if (study.design !== "PAIRWISE") throw new ApiError(409, "the study is of the scoring design: its judges' agreement is in GET /api/v1/studies/{id}/stats (judges)");
  return judgePreferenceComparisons(study.id);
});
