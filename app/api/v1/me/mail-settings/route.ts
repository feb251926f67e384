import { apiRoute, readJson } from "@/lib/server/api-route";
import { ANY_ROLE } from "@/lib/auth/roles";
import { MailSettingsBody } from "@/lib/mail/contract";
import { setWeeklyDigest } from "@/lib/mail/settings";

export const PUT = apiRoute(ANY_ROLE, async ({ req, user, requestId }) => {
  const { weeklyDigest } = await readJson(req, MailSettingsBody);
  return setWeeklyDigest(user.id, weeklyDigest, "settings", requestId);
});
