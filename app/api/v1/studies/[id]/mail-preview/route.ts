import { apiRoute } from "@/lib/server/api-route";
import { LEAD_ROLES } from "@/lib/auth/roles";
import { mailEnabled } from "@/lib/mail/config";
import { previewMail } from "@/lib/mail/preview";
import { requireStudyForLead } from "@/lib/studies/access";

type Params = { id: string };

export const GET = apiRoute<Params>(LEAD_ROLES, async ({ user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  return { mail: mailEnabled(), templates: previewMail(study) };
});
