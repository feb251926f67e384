import { GRADER_ROLES } from "@/lib/auth/roles";
import { getComparisonForGrader } from "@/lib/pairwise/grading";
import { apiRoute } from "@/lib/server/api-route";

export const GET = apiRoute<{ id: string }>(GRADER_ROLES, async ({ user, params }) => getComparisonForGrader(user.id, params.id));
