import { apiRoute } from "@/lib/server/api-route";
import { LEAD_ROLES } from "@/lib/auth/roles";
import { requireStudyForLead } from "@/lib/studies/access";
import { listItems } from "@/lib/studies/items";
import { itemListQuerySchema } from "@/lib/studies/list-params";
import { readQuery } from "@/lib/studies/route-helpers";

export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  const { rows, ...page } = await listItems(study, readQuery(req, itemListQuerySchema));
  return { items: rows, repetitions: study.repetitions, ...page };
});
