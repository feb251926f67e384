import { LEAD_ROLES } from "@/lib/auth/roles";
import { addGradersBulk } from "@/lib/graders/bulk";
import { BulkAddGradersBody } from "@/lib/graders/contract";
import { apiRoute, readJson } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

type Params = { id: string };

export const POST = apiRoute<Params>(LEAD_ROLES, async ({ req, user, params, requestId, log }) => {
  const study = await requireStudyForLead(user, params.id);
  const input = await readJson(req, BulkAddGradersBody);
  const result = await addGradersBulk({ id: user.id, requestId }, study.id, input);
  // Never log the initial passwords.
  log.info(
    { studyId: study.id, added: result.added.length, created: result.added.filter((a) => a.accountCreated).length, notAdded: result.notAdded.length },
    "graders added in bulk",
  );
  return Response.json(result, { status: result.added.length ? 201 : 200, headers: { "cache-control": "no-store" } });
});
