import { LEAD_ROLES } from "@/lib/auth/roles";
import { harmFlagsQuerySchema } from "@/lib/harm/contract";
import { listHarmFlags } from "@/lib/harm/service";
import { apiRoute } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";
import { readQuery } from "@/lib/studies/route-helpers";

export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  return { flags: await listHarmFlags(study.id, readQuery(req, harmFlagsQuerySchema)) };
});
