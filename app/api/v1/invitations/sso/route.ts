import { publicRoute, readJson } from "@/lib/server/api-route";
import { invitationCookie } from "@/lib/auth/invitation-cookie";
import { clientAddress } from "@/lib/log/client-address";
import { OpenInvitationBody } from "@/lib/mail/contract";
import { invitationAnswer } from "@/lib/mail/invitation-answer";
import { checkInvitationForSso } from "@/lib/mail/invitations";

export const POST = publicRoute(async ({ req }) => {
  const { token } = await readJson(req, OpenInvitationBody, 10_000);
  const body = invitationAnswer(await checkInvitationForSso(token, clientAddress(req.headers)), () => ({ sso: true as const }));
  return Response.json(body, { headers: { "set-cookie": invitationCookie(token), "cache-control": "no-store" } });
});
