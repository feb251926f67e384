import { GRADER_ROLES } from "@/lib/auth/roles";
import { isUuid } from "@/lib/db/uuid";
import { ApiError } from "@/lib/errors/api-error";
import { myCalibration } from "@/lib/quality-tasks/calibration";
import { apiRoute } from "@/lib/server/api-route";

/** The grader's own calibration feedback in a study they grade. */
export const GET = apiRoute<{ id: string }>(GRADER_ROLES, async ({ user, params }) => {
  if (!isUuid(params.id)) throw new ApiError(404, "study not found");
  return Response.json(await myCalibration(user.id, params.id));
});
