/**
 * E-mail settings, from the environment (README, "Configuration"):
 *
 *   SMTP_URL                 e.g. smtps://user:pass@smtp.example.org:465, or instead:
 *   SMTP_HOST, SMTP_PORT     (default 587), SMTP_USER, SMTP_PASSWORD,
 *   SMTP_TLS                 on: TLS from the start (port 465); starttls (default): upgrade when offered; off: never
 *   MAIL_FROM                the sender, e.g. "Clingrade <grading@hospital.example>"; required with either
 *   MAIL_INVITATION_DAYS     how long an invitation's link works (default 7)
 *
 * Nothing set: e-mail is off and the app works as without it (first passwords
 * are shown to the lead; pages say e-mail is off). A wrong setting stops the
 * server at start (scripts/start.ts), never at a send.
 */
export interface MailConfig {
  /** For nodemailer's createTransport: a URL or host options. Holds the password: never log it. */
  transport: string | { host: string; port: number; secure: boolean; ignoreTLS: boolean; auth?: { user: string; pass: string } };
  from: string;
  invitationDays: number;
}

export class MailConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MailConfigError";
  }
}

type Env = Record<string, string | undefined>;
const value = (env: Env, name: string) => env[name]?.trim() || undefined;

const SMTP_PARTS = ["SMTP_HOST", "SMTP_PORT", "SMTP_USER", "SMTP_PASSWORD", "SMTP_TLS"];

/** The mail settings, or null when e-mail is off. Throws MailConfigError when they are wrong. */
export function mailConfigFromEnv(env: Env = process.env): MailConfig | null {
  const url = value(env, "SMTP_URL");
  const host = value(env, "SMTP_HOST");
  const from = value(env, "MAIL_FROM");
  if (!url && !host) {
    const stray = [...SMTP_PARTS, "MAIL_FROM"].filter((n) => value(env, n));
    if (stray.length) throw new MailConfigError(`${stray.join(", ")} set without SMTP_URL or SMTP_HOST: set one of them, or none of the mail settings`);
    return null;
  }
  if (url && host) throw new MailConfigError("set SMTP_URL or SMTP_HOST, not both");
  if (!from) throw new MailConfigError("MAIL_FROM is required when e-mail is on, e.g. MAIL_FROM=\"Clingrade <grading@hospital.example>\"");
  if (/[\r\n]/.test(from)) throw new MailConfigError("MAIL_FROM must be one line");
  const daysRaw = value(env, "MAIL_INVITATION_DAYS");
  const invitationDays = daysRaw === undefined ? 7 : Number(daysRaw);
  if (!Number.isInteger(invitationDays) || invitationDays < 1 || invitationDays > 90) throw new MailConfigError("MAIL_INVITATION_DAYS must be a whole number of days from 1 to 90");
  if (url) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      // The URL may hold a password: the message does not repeat it.
      throw new MailConfigError("SMTP_URL is not a URL (smtp://host:port or smtps://user:password@host:port)");
    }
    if (parsed.protocol !== "smtp:" && parsed.protocol !== "smtps:") throw new MailConfigError("SMTP_URL must start with smtp:// or smtps://");
    return { transport: url, from, invitationDays };
  }
  const portRaw = value(env, "SMTP_PORT");
  const port = portRaw === undefined ? 587 : Number(portRaw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new MailConfigError(`SMTP_PORT=${portRaw} is not a port number`);
  const tls = (value(env, "SMTP_TLS") ?? "starttls").toLowerCase();
  if (!["on", "starttls", "off"].includes(tls)) throw new MailConfigError(`SMTP_TLS must be on, starttls or off, not "${tls}"`);
  const user = value(env, "SMTP_USER");
  const pass = env.SMTP_PASSWORD ?? "";
  if (!user && pass) throw new MailConfigError("SMTP_PASSWORD is set without SMTP_USER");
  return {
    transport: { host: host!, port, secure: tls === "on", ignoreTLS: tls === "off", ...(user ? { auth: { user, pass } } : {}) },
    from,
    invitationDays,
  };
}

/** Whether e-mail is on (settings checked at start, so this does not throw in a request). */
export function mailEnabled(env: Env = process.env): boolean {
  try {
    return mailConfigFromEnv(env) !== null;
  } catch {
    return false;
  }
}

/** The app's public address, for links in messages (NEXTAUTH_URL, as sign-in uses). */
export function appUrl(env: Env = process.env): string {
  return (value(env, "NEXTAUTH_URL") ?? `http://localhost:${value(env, "PORT") ?? 3000}`).replace(/\/+$/, "");
}
