import { assignmentProgress, assignGraders } from "@/lib/assignment/service";
import { LEAD_ROLES } from "@/lib/auth/roles";
import { assignmentRunSchema } from "@/lib/grading/contract";
import { apiRoute, readJson } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

export const POST = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  const body = await readJson(req, assignmentRunSchema);
  return assignGraders(study.id, body, user.id, requestId);
});

export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  return assignmentProgress(study.id);
});
