import { ADMIN_ROLES } from "@/lib/auth/roles";
import { isUuid } from "@/lib/db/uuid";
import { apiRoute, readJson } from "@/lib/server/api-route";
import { ApiError } from "@/lib/server/errors";
import { setActiveBody } from "@/lib/users/contract";
import { setUserActive, UserError } from "@/lib/users/service";

export const PATCH = apiRoute<{ id: string }>(ADMIN_ROLES, async ({ req, user, params }) => {
  if (!isUuid(params.id)) throw new ApiError(404, "no such user");
  const { active } = await readJson(req, setActiveBody);
  if (params.id === user.id && !active) throw new ApiError(409, "you cannot deactivate your own account");
  try {
    await setUserActive(params.id, active, user.id);
  } catch (err) {
    if (err instanceof UserError && err.code === "not_found") throw new ApiError(404, "no such user");
    throw err;
  }
  return { id: params.id, active };
});
