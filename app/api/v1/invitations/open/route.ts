import { publicRoute, readJson } from "@/lib/server/api-route";
import { clientAddress } from "@/lib/log/client-address";
import { OpenInvitationBody } from "@/lib/mail/contract";
import { invitationAnswer } from "@/lib/mail/invitation-answer";
import { openInvitation } from "@/lib/mail/invitations";

export const POST = publicRoute(async ({ req }) => {
  const { token } = await readJson(req, OpenInvitationBody, 10_000);
  return invitationAnswer(await openInvitation(token, clientAddress(req.headers)), (r) => ({ passwords: r.passwords, sso: r.sso }));
});
