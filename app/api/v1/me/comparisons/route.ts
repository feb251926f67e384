import { GRADER_ROLES } from "@/lib/auth/roles";
import { listMyComparisons } from "@/lib/pairwise/grading";
import { apiRoute } from "@/lib/server/api-route";

export const GET = apiRoute(GRADER_ROLES, async ({ user }) => ({
  comparisons: (await listMyComparisons(user.id)).map(({ id, kind, status, position }) => ({ id, kind, status, position })),
}));
