import { logger } from "@/lib/log/logger";
import { appUrl, type MailConfig } from "./config";
import { mintInvitationToken } from "./invitations";
import { claimMail, settleFailed, settleSent, type LeasedMail } from "./outbox";
import { renderMail, type Links } from "./templates";
import { signUnsubscribe } from "./tokens";
import { classifySmtpError, transporterFor } from "./transport";

export type SendOutcome = "sent" | "retry" | "failed" | "bounced" | "lost";

async function linksFor(m: LeasedMail): Promise<Links | { cancelled: string }> {
  const app = appUrl();
  if (m.params.kind === "invitation") {
    if (!m.invitationId) return { cancelled: "an invitation message without its invitation" };
    const token = await mintInvitationToken(m.invitationId);
    if (!token) return { cancelled: "the invitation was accepted, revoked or expired before it was sent" };
    // In the fragment: browsers do not send it to the server, so no access log or Referer holds it.
    return { app, invitation: `${app}/invitation#${token}` };
  }
  if (m.params.kind === "digest" && m.toUserId) return { app, unsubscribe: `${app}/unsubscribe#${signUnsubscribe(m.toUserId, "weeklyDigest")}` };
  return { app };
}

async function sendOne(config: MailConfig, m: LeasedMail): Promise<SendOutcome> {
  try {
    const links = await linksFor(m);
    if ("cancelled" in links) return settleFailed(m, links.cancelled, "final");
    const rendered = renderMail(m.params, links);
    await transporterFor(config).sendMail({ from: config.from, to: m.toEmail, subject: rendered.subject, text: rendered.text, html: rendered.html });
    return (await settleSent(m, rendered.subject)) ? "sent" : "lost";
  } catch (err) {
    const failure = classifySmtpError(err);
    logger.warn({ mailId: m.id, kind: m.kind, how: failure.how, err: failure.message }, "mail not sent");
    return settleFailed(m, failure.message, failure.how);
  }
}

/** One pass: sends what is due (at most `max`), one message at a time; returns each outcome. */
export async function sendDueMail(config: MailConfig, max = 20): Promise<SendOutcome[]> {
  const leased = await claimMail(max);
  const out: SendOutcome[] = [];
  for (const m of leased) out.push(await sendOne(config, m));
  return out;
}
