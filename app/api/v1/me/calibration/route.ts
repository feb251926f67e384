import { GRADER_ROLES } from "@/lib/auth/roles";
import { myCalibrations } from "@/lib/quality-tasks/calibration";
import { apiRoute } from "@/lib/server/api-route";

/** The grader's own calibration feedback, per study that asks for it. */
export const GET = apiRoute(GRADER_ROLES, async ({ user }) => ({ studies: await myCalibrations(user.id) }));
