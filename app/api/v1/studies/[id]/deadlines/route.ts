import { apiRoute, readJson } from "@/lib/server/api-route";
import { LEAD_ROLES } from "@/lib/auth/roles";
import { SetDeadlinesBody } from "@/lib/mail/contract";
import { setDeadlines } from "@/lib/mail/settings";
import { requireStudyForLead } from "@/lib/studies/access";

type Params = { id: string };

export const PUT = apiRoute<Params>(LEAD_ROLES, async ({ req, user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  const input = await readJson(req, SetDeadlinesBody);
  return setDeadlines({ id: user.id, requestId }, study.id, input);
});
