import { ADMIN_ROLES } from "@/lib/auth/roles";
import { apiRoute, readJson } from "@/lib/server/api-route";
import { ApiError } from "@/lib/errors/api-error";
import { createUserBody } from "@/lib/users/contract";
import { listUsers } from "@/lib/users/queries";
import { createUser, UserError } from "@/lib/users/service";

export const GET = apiRoute(ADMIN_ROLES, async () => ({
  users: (await listUsers()).map(({ id, email, name, role, active, specialties, external, openWork }) => ({ id, email, name, role, active, specialties, external, openWork })),
}));

export const POST = apiRoute(ADMIN_ROLES, async ({ req, user }) => {
  const body = await readJson(req, createUserBody);
  try {
    const created = await createUser(body, user.id);
    return Response.json({ id: created.id, ...("invitationId" in created ? { invitationId: created.invitationId } : {}) }, { status: 201 });
  } catch (err) {
    if (err instanceof UserError) throw new ApiError(err.code === "conflict" ? 409 : 422, err.message, err.issues);
    throw err;
  }
});
