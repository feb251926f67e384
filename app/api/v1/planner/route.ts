import { LEAD_ROLES } from "@/lib/auth/roles";
import { PlannerRequest } from "@/lib/planner/contract";
import { plan } from "@/lib/planner/service";
import { apiRoute, readJson } from "@/lib/server/api-route";

/** The study planner (lib/planner): how many sets a target needs. Leads and admins. */
export const POST = apiRoute(LEAD_ROLES, async ({ req, user }) => plan(await readJson(req, PlannerRequest, 10_000), user));
