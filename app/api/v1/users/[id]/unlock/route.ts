import { ADMIN_ROLES } from "@/lib/auth/roles";
import { apiRoute } from "@/lib/server/api-route";
import { ApiError } from "@/lib/errors/api-error";
import { UnlockUserParams } from "@/lib/users/contract";
import { unlockUser, UserError } from "@/lib/users/service";

export const POST = apiRoute<{ id: string }>(ADMIN_ROLES, async ({ params, user }) => {
  if (!UnlockUserParams.safeParse(params).success) throw new ApiError(404, "no such user");
  try {
    return { id: params.id, clearedFailures: await unlockUser(params.id, user.id) };
  } catch (err) {
    if (err instanceof UserError && err.code === "not_found") throw new ApiError(404, "no such user");
    throw err;
  }
});
