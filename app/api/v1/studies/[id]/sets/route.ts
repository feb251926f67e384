import { LEAD_ROLES } from "@/lib/auth/roles";
import { setsQuerySchema } from "@/lib/escalation/contract";
import type { SetStatus } from "@/lib/generated/prisma/enums";
import { computeSetResults } from "@/lib/results/sets";
import { apiRoute } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";
import { readQuery } from "@/lib/studies/route-helpers";

export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  const q = readQuery(req, setsQuerySchema);
  const sets = await computeSetResults(study.id, { status: q.status?.toUpperCase() as SetStatus | undefined });
  return { sets: sets.map(({ itemId: _itemId, status, ...s }) => ({ ...s, status: status.toLowerCase() })) };
});
