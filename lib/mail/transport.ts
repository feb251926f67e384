import nodemailer, { type Transporter } from "nodemailer";
import type { MailConfig } from "./config";

/**
 * The SMTP connection, one per process and settings. Timeouts are bounded, so
 * a send always ends well within the outbox's lease (./outbox.ts LEASE_MS).
 */
const cache = globalThis as unknown as { clingradeMailer?: { key: string; transporter: Transporter } };

export function transporterFor(config: MailConfig): Transporter {
  const key = JSON.stringify(config.transport);
  if (cache.clingradeMailer?.key !== key) {
    cache.clingradeMailer?.transporter.close();
    const timeouts = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };
    const transporter = nodemailer.createTransport(typeof config.transport === "string" ? { url: config.transport, ...timeouts } : { ...config.transport, ...timeouts });
    cache.clingradeMailer = { key, transporter };
  }
  return cache.clingradeMailer.transporter;
}

export interface SmtpFailure {
  how: "bounced" | "final" | "retry";
  message: string;
}

/**
 * What an SMTP error means for the message: the recipient refused for good
 * (5xx at RCPT: bounced), any other 5xx (final), anything else (a 4xx, the
 * connection) may pass and is retried. The message names no setting's value.
 */
export function classifySmtpError(err: unknown): SmtpFailure {
  const e = err as { code?: string; responseCode?: number; response?: string; command?: string; message?: string };
  const code = typeof e.responseCode === "number" ? e.responseCode : 0;
  const message = (e.response ?? e.message ?? String(err)).slice(0, 300);
  if (code >= 500 && (e.code === "EENVELOPE" || e.command === "RCPT TO")) return { how: "bounced", message };
  if (code >= 500) return { how: "final", message };
  return { how: "retry", message };
}
