import { publicRoute, readJson } from "@/lib/server/api-route";
import { UnsubscribeBody } from "@/lib/mail/contract";
import { unsubscribe } from "@/lib/mail/settings";

export const POST = publicRoute(async ({ req, requestId }) => {
  const { token } = await readJson(req, UnsubscribeBody, 10_000);
  return unsubscribe(token, requestId);
});
