import { apiRoute, readJson } from "@/lib/server/api-route";
import { LEAD_ROLES } from "@/lib/auth/roles";
import { listGraders } from "@/lib/graders/queries";
import { addGrader } from "@/lib/graders/service";
import { requireStudyForLead } from "@/lib/studies/access";
import { AddGraderBody } from "@/lib/studies/contract";
import { graderListQuerySchema } from "@/lib/graders/list-params";
import { readQuery } from "@/lib/studies/route-helpers";

type Params = { id: string };

export const GET = apiRoute<Params>(LEAD_ROLES, async ({ req, user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  const { rows, ...page } = await listGraders(study.id, readQuery(req, graderListQuerySchema));
  return { graders: rows, ...page };
});

export const POST = apiRoute<Params>(LEAD_ROLES, async ({ req, user, params, requestId, log }) => {
  const study = await requireStudyForLead(user, params.id);
  const input = await readJson(req, AddGraderBody);
  const result = await addGrader({ id: user.id, requestId }, study.id, input);
  // Never log the initial password.
  log.info({ studyId: study.id, graderId: result.userId, accountCreated: result.accountCreated }, "grader added");
  return Response.json(result, { status: result.reactivated ? 200 : 201, headers: { "cache-control": "no-store" } });
});
