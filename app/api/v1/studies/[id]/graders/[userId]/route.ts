import { apiRoute, readJson } from "@/lib/server/api-route";
import { LEAD_ROLES } from "@/lib/auth/roles";
import { isUuid } from "@/lib/db/uuid";
import { ApiError } from "@/lib/errors/api-error";
import { deactivateGrader, setGraderSpecialties } from "@/lib/graders/service";
import { requireStudyForLead } from "@/lib/studies/access";
import { SetGraderSpecialtiesBody } from "@/lib/studies/contract";

type Params = { id: string; userId: string };

/** Sets the grader's specialties in this study only. */
export const PATCH = apiRoute<Params>(LEAD_ROLES, async ({ req, user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  if (!isUuid(params.userId)) throw new ApiError(404, "no grader with that id in this study");
  const input = await readJson(req, SetGraderSpecialtiesBody);
  return setGraderSpecialties({ id: user.id, requestId }, study.id, params.userId, input);
});

/** Takes the grader off this study; DELETE because the membership ends, though its row stays for the grades' sake. */
export const DELETE = apiRoute<Params>(LEAD_ROLES, async ({ user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  if (!isUuid(params.userId)) throw new ApiError(404, "no grader with that id in this study");
  return deactivateGrader({ id: user.id, requestId }, study.id, params.userId);
});
