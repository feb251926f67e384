import { apiRoute } from "@/lib/server/api-route";
import { ANY_ROLE } from "@/lib/auth/roles";

export const GET = apiRoute(ANY_ROLE, async ({ user }) => ({ id: user.id, email: user.email, name: user.name, role: user.role }));
