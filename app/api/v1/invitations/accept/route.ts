import { publicRoute, readJson } from "@/lib/server/api-route";
import { clientAddress } from "@/lib/log/client-address";
import { AcceptInvitationBody } from "@/lib/mail/contract";
import { invitationAnswer } from "@/lib/mail/invitation-answer";
import { acceptInvitation } from "@/lib/mail/invitations";

export const POST = publicRoute(async ({ req }) => {
  const { token, password } = await readJson(req, AcceptInvitationBody, 10_000);
  return invitationAnswer(await acceptInvitation(token, password, clientAddress(req.headers)), (r) => ({ email: r.email }));
});
