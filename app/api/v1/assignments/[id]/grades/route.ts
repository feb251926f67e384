import { GRADER_ROLES } from "@/lib/auth/roles";
import { GradeSubmissionBody } from "@/lib/grading/contract";
import { assertOwnAssignment, saveGrades } from "@/lib/grading/service";
import { apiRoute, readJson } from "@/lib/server/api-route";

export const PUT = apiRoute<{ id: string }>(GRADER_ROLES, async ({ req, user, params, requestId }) => {
  await assertOwnAssignment(user.id, params.id); // someone else's assignment: 404 whatever the body
  const body = await readJson(req, GradeSubmissionBody, 256_000);
  return saveGrades(user.id, params.id, body, requestId);
});
