import { LEAD_ROLES } from "@/lib/auth/roles";
import { PilotExpectedQuery } from "@/lib/quality-tasks/contract";
import { pilotExpected } from "@/lib/quality-tasks/pilot";
import { apiRoute } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";
import { readQuery } from "@/lib/studies/route-helpers";

/** Proposes a set's expected scores from another study of the lead's that graded the same answers. Leads of both studies and admins; graders 403, other leads 404. */
export const GET = apiRoute<{ id: string; setId: string }>(LEAD_ROLES, async ({ req, user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  const q = readQuery(req, PilotExpectedQuery);
  const pilot = await requireStudyForLead(user, q.from);
  return Response.json(await pilotExpected(study.id, params.setId, pilot.id), { headers: { "cache-control": "no-store" } });
});
