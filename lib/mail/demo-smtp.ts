import { SMTPServer } from "smtp-server";

/**
 * `npm run demo` without SMTP settings: a catch-all SMTP server in this
 * process, on 127.0.0.1 only, that accepts every message and keeps nothing
 * (the outbox's log is what the admin's mail page shows). It lets the
 * invitation and reminder flows run end to end on one machine.
 */
export async function startDemoSmtp(port: number): Promise<{ url: string; close: () => Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => callback());
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}
