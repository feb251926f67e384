import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface Caught {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * A real SMTP server in the test's process: it parses what it receives with
 * mailparser, and refuses (550 at RCPT) any recipient whose address starts
 * with "bounce", as a mail server refuses an unknown mailbox.
 */
export async function startSmtpCatcher() {
  const messages: Caught[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith("bounce")) {
        const err = new Error("5.1.1 no such mailbox") as Error & { responseCode: number };
        err.responseCode = 550;
        return callback(err);
      }
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (m) => {
          const to = Array.isArray(m.to) ? m.to[0] : m.to;
          messages.push({ to: to?.value[0]?.address ?? "", subject: m.subject ?? "", text: m.text ?? "", html: typeof m.html === "string" ? m.html : "" });
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to: (email: string) => messages.filter((m) => m.to === email),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The invitation link's token in a message (after #). */
export function tokenIn(text: string): string {
  const m = /\/invitation#([A-Za-z0-9_-]{43})/.exec(text);
  if (!m) throw new Error(`no invitation link in: ${text}`);
  return m[1];
}

/** Puts environment variables back as they were: unset ones are deleted, not set to "undefined". */
export function restoreEnv(saved: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}
