import { GRADER_ROLES } from "@/lib/auth/roles";
import { listMyAssignments } from "@/lib/grading/service";
import { apiRoute } from "@/lib/server/api-route";

export const GET = apiRoute(GRADER_ROLES, async ({ user }) => ({
  assignments: (await listMyAssignments(user.id)).map(({ id, responseSetId, kind, status, position }) => ({ id, responseSetId, kind, status, position })),
}));
