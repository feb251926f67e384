import { ADMIN_ROLES, LEAD_ROLES } from "@/lib/auth/roles";
import { JudgeEndpoint, judgeEndpointInput } from "@/lib/judges/runner/contract";
import { createEndpoint, listEndpoints } from "@/lib/judges/runner/endpoints";
import { apiRoute, json, readJson } from "@/lib/server/api-route";

/** Leads pick an endpoint for a run; only admins set one up (the server connects to its URL). */
export const GET = apiRoute(LEAD_ROLES, async () => ({ endpoints: await listEndpoints() }));

export const POST = apiRoute(ADMIN_ROLES, async ({ req, user, requestId }) => {
  const created = await createEndpoint(await readJson(req, judgeEndpointInput), user.id, requestId);
  return json(JudgeEndpoint.parse(created), { status: 201 });
});
