import { GRADER_ROLES } from "@/lib/auth/roles";
import { getAssignmentForGrader } from "@/lib/grading/service";
import { apiRoute } from "@/lib/server/api-route";

export const GET = apiRoute<{ id: string }>(GRADER_ROLES, async ({ user, params }) => getAssignmentForGrader(user.id, params.id));
