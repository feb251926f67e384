import { apiRoute, readJson } from "@/lib/server/api-route";
import { LEAD_ROLES } from "@/lib/auth/roles";
import { CreateStudyBody } from "@/lib/studies/contract";
import { studyListQuerySchema } from "@/lib/studies/list-params";
import { listStudiesPage } from "@/lib/studies/queries";
import { readQuery } from "@/lib/studies/route-helpers";
import { createStudy } from "@/lib/studies/service";

export const GET = apiRoute(LEAD_ROLES, async ({ req, user }) => {
  const { rows, ...page } = await listStudiesPage(user, readQuery(req, studyListQuerySchema));
  return { studies: rows, ...page };
});

export const POST = apiRoute(LEAD_ROLES, async ({ req, user, requestId, log }) => {
  const input = await readJson(req, CreateStudyBody);
  const created = await createStudy({ id: user.id, requestId }, input);
  log.info({ studyId: created.id }, "study created");
  return Response.json(created, { status: 201 });
});
