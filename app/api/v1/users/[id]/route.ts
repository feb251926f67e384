import { ADMIN_ROLES } from "@/lib/auth/roles";
import { isUuid } from "@/lib/db/uuid";
import { apiRoute, readJson } from "@/lib/server/api-route";
import { ApiError } from "@/lib/errors/api-error";
import { updateUserBody } from "@/lib/users/contract";
import { updateUser } from "@/lib/users/update";

export const PATCH = apiRoute<{ id: string }>(ADMIN_ROLES, async ({ req, user, params }) => {
  if (!isUuid(params.id)) throw new ApiError(404, "no such user");
  const input = await readJson(req, updateUserBody);
  return updateUser(user.id, params.id, input);
});
