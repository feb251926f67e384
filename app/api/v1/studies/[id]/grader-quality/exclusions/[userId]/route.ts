import { apiRoute, readJson } from "@/lib/server/api-route";
import { LEAD_ROLES } from "@/lib/auth/roles";
import { isUuid } from "@/lib/db/uuid";
import { ApiError } from "@/lib/errors/api-error";
import { ExcludeGraderBody } from "@/lib/grader-quality/contract";
import { setGraderExclusion } from "@/lib/grader-quality/service";
import { requireStudyForLead } from "@/lib/studies/access";

type Params = { id: string; userId: string };

/** Leaves the grader's grades out of the analysis (audited; the grades stay). */
export const PUT = apiRoute<Params>(LEAD_ROLES, async ({ req, user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  if (!isUuid(params.userId)) throw new ApiError(404, "no grader with that id in this study");
  const { reason } = await readJson(req, ExcludeGraderBody);
  return Response.json(await setGraderExclusion({ id: user.id, requestId }, study.id, params.userId, { reason }));
});

/** Brings the grader's grades back into the analysis (audited). */
export const DELETE = apiRoute<Params>(LEAD_ROLES, async ({ user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  if (!isUuid(params.userId)) throw new ApiError(404, "no grader with that id in this study");
  return Response.json(await setGraderExclusion({ id: user.id, requestId }, study.id, params.userId, null));
});
