import { apiRoute } from "@/lib/server/api-route";
import { LEAD_ROLES } from "@/lib/auth/roles";
import { listStudiesFor } from "@/lib/studies/queries";

export const GET = apiRoute(LEAD_ROLES, async ({ user }) => ({ studies: await listStudiesFor(user) }));
