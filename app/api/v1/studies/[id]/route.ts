import { apiRoute, readJson } from "@/lib/server/api-route";
import { LEAD_ROLES } from "@/lib/auth/roles";
import { ApiError } from "@/lib/errors/api-error";
import { requireStudyForLead } from "@/lib/studies/access";
import { UpdateStudyBody } from "@/lib/studies/contract";
import { studyDetail, updateStudy } from "@/lib/studies/service";

type Params = { id: string };

async function detailOrThrow(id: string) {
  const detail = await studyDetail(id);
  if (!detail) throw new ApiError(404, "study not found");
  return detail;
}

export const GET = apiRoute<Params>(LEAD_ROLES, async ({ user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  return detailOrThrow(study.id);
});

export const PATCH = apiRoute<Params>(LEAD_ROLES, async ({ req, user, params, requestId, log }) => {
  const study = await requireStudyForLead(user, params.id);
  const patch = await readJson(req, UpdateStudyBody);
  const result = await updateStudy({ id: user.id, requestId }, study.id, patch);
  if (result.changed.length || patch.status) log.info({ studyId: study.id, changed: result.changed, status: result.status }, "study updated");
  return detailOrThrow(study.id);
});
