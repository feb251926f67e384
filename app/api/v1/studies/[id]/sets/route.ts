import { LEAD_ROLES } from "@/lib/auth/roles";
import { encodeSetCursor, setsQuerySchema } from "@/lib/escalation/contract";
import type { SetStatus } from "@/lib/generated/prisma/enums";
import { setResultsAfter } from "@/lib/results/sets";
import { apiRoute } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";
import { readQuery } from "@/lib/studies/route-helpers";

/** Sets with their final scores, a keyset page at a time: a whole study would be one document the server holds at once. */
export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  const q = readQuery(req, setsQuerySchema);
  const { sets, next } = await setResultsAfter(study.id, { status: q.status?.toUpperCase() as SetStatus | undefined }, q.cursor, q.limit);
  return {
    sets: sets.map(({ itemId: _itemId, status, ...s }) => ({ ...s, status: status.toLowerCase() })),
    nextCursor: next ? encodeSetCursor(next) : null,
  };
});
