import { ADMIN_ROLES } from "@/lib/auth/roles";
import { JudgeEndpoint, judgeEndpointPatch } from "@/lib/judges/runner/contract";
import { updateEndpoint } from "@/lib/judges/runner/endpoints";
import { apiRoute, readJson } from "@/lib/server/api-route";

export const PATCH = apiRoute<{ endpointId: string }>(ADMIN_ROLES, async ({ req, user, params, requestId }) =>
  JudgeEndpoint.parse(await updateEndpoint(params.endpointId, await readJson(req, judgeEndpointPatch), user.id, requestId)),
);
