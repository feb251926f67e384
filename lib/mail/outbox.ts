import { auditInsertSql } from "@/lib/audit/record";
import { getDb, type Tx } from "@/lib/db/client";
import type { MailParams } from "./templates";

/**
 * The outbox (MailMessage): a message is a row, written in the transaction of
 * the change it tells of, so it is sent if and only if that change happened.
 * Any instance's worker leases due rows with FOR UPDATE SKIP LOCKED (as the
 * judge runner does), so two instances never take the same row; a settle names
 * its lease, and a lease outlives the SMTP timeouts (./transport.ts), so a
 * message is sent once. Sent rows stay as the log (subject, recipient, when).
 */

export interface Outgoing {
  params: MailParams;
  toEmail: string;
  toUserId?: string | null;
  studyId?: string | null;
  invitationId?: string | null;
  /** One message per key: enqueueing the same key again does nothing (and says so). */
  dedupeKey?: string;
}

/** Queues a message; false when one with its dedupeKey was queued before. */
export async function enqueueMail(tx: Tx | ReturnType<typeof getDb>, m: Outgoing): Promise<boolean> {
  const n = await tx.$executeRaw`
    INSERT INTO "MailMessage" (id, kind, "toEmail", "toUserId", "studyId", "invitationId", params, "dedupeKey")
    VALUES (gen_random_uuid(), ${m.params.kind}, ${m.toEmail}, ${m.toUserId ?? null}::uuid, ${m.studyId ?? null}::uuid,
            ${m.invitationId ?? null}::uuid, ${JSON.stringify(m.params)}::jsonb, ${m.dedupeKey ?? null})
    ON CONFLICT ("dedupeKey") DO NOTHING`;
  return n === 1;
}

export interface LeasedMail {
  id: string;
  kind: string;
  toEmail: string;
  toUserId: string | null;
  studyId: string | null;
  invitationId: string | null;
  params: MailParams;
  attempts: number;
  leaseToken: string;
}

/** A lease longer than any one send may take (connection, greeting and socket timeouts together). */
export const LEASE_MS = 5 * 60_000;
export const MAX_ATTEMPTS = 6;

/** Leases up to `max` due messages (and ones whose worker died mid-send). */
export async function claimMail(max: number, leaseMs = LEASE_MS): Promise<LeasedMail[]> {
  if (max <= 0) return [];
  return getDb().$queryRaw<LeasedMail[]>`
    UPDATE "MailMessage" m SET status = 'SENDING', attempts = m.attempts + 1, "leaseToken" = gen_random_uuid(),
      "leaseExpiresAt" = now() + ${leaseMs} * interval '1 millisecond'
    WHERE m.id IN (
      SELECT id FROM "MailMessage"
      WHERE (status = 'PENDING' AND "availableAt" <= now()) OR (status = 'SENDING' AND "leaseExpiresAt" <= now())
      ORDER BY "availableAt", id
      LIMIT ${max}
      FOR UPDATE SKIP LOCKED)
    RETURNING m.id, m.kind, m."toEmail", m."toUserId", m."studyId", m."invitationId", m.params, m.attempts, m."leaseToken"`;
}

/**
 * What was sent, in the audit: the message's kind and recipient, never its body or parameters
 * (an invitation's link is minted at sending and exists nowhere else).
 */
function mailAudit(action: string, m: LeasedMail, extra: Record<string, string>) {
  return auditInsertSql({
    actorId: null,
    action,
    entityType: "MailMessage",
    entityId: m.id,
    studyId: m.studyId,
    after: { kind: m.kind, toUserId: m.toUserId, invitationId: m.invitationId, ...extra },
  });
}

const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, " ").slice(0, 500);

/** Sent: the row becomes its log entry. The invitation it carried (if any) is marked sent in the same statement. */
export async function settleSent(m: LeasedMail, subject: string): Promise<boolean> {
  return getDb().$transaction(async (tx) => {
    const n = await tx.$executeRaw`UPDATE "MailMessage" SET status = 'SENT', "sentAt" = now(), subject = ${oneLine(subject)}, error = NULL,
        "leaseToken" = NULL, "leaseExpiresAt" = NULL
      WHERE id = ${m.id}::uuid AND "leaseToken" = ${m.leaseToken}::uuid AND status = 'SENDING'`;
    if (n === 1 && m.invitationId) {
      await tx.$executeRaw`UPDATE "Invitation" SET "sentAt" = now(), "bouncedAt" = NULL WHERE id = ${m.invitationId}::uuid`;
    }
    if (n === 1) await tx.$executeRaw(mailAudit("mail.sent", m, { subject: oneLine(subject) }));
    return n === 1;
  });
}

/**
 * Not sent: `bounced` (the server refused the recipient) and `final` failures
 * stay so; others go back to the queue after an exponential backoff while
 * attempts remain.
 */
export async function settleFailed(m: LeasedMail, error: string, how: "bounced" | "final" | "retry"): Promise<"retry" | "failed" | "bounced" | "lost"> {
  const retry = how === "retry" && m.attempts < MAX_ATTEMPTS;
  const status = how === "bounced" ? "BOUNCED" : retry ? "PENDING" : "FAILED";
  // Full jitter from 30 s doubling: instances that failed together do not retry together.
  const delay = retry ? Math.round(Math.min(3_600_000, 30_000 * 2 ** (m.attempts - 1)) * (0.5 + Math.random() / 2)) : 0;
  return getDb().$transaction(async (tx) => {
    const n = await tx.$executeRaw`UPDATE "MailMessage" SET status = ${status}::"MailStatus", error = ${oneLine(error)},
        "leaseToken" = NULL, "leaseExpiresAt" = NULL, "availableAt" = now() + ${delay} * interval '1 millisecond'
      WHERE id = ${m.id}::uuid AND "leaseToken" = ${m.leaseToken}::uuid AND status = 'SENDING'`;
    if (n !== 1) return "lost";
    if (status === "BOUNCED" && m.invitationId) await tx.$executeRaw`UPDATE "Invitation" SET "bouncedAt" = now() WHERE id = ${m.invitationId}::uuid`;
    if (status !== "PENDING") await tx.$executeRaw(mailAudit(status === "BOUNCED" ? "mail.bounced" : "mail.failed", m, { error: oneLine(error) }));
    return status === "BOUNCED" ? "bounced" : retry ? "retry" : "failed";
  });
}

export interface MailLogRow {
  id: string;
  kind: string;
  toEmail: string;
  status: string;
  subject: string | null;
  error: string | null;
  attempts: number;
  createdAt: Date;
  sentAt: Date | null;
}

/** The newest messages, sent or not, for the admin's mail page (no bodies are stored: only what the log needs). */
export function recentMail(limit = 200): Promise<MailLogRow[]> {
  return getDb().mailMessage.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: limit,
    select: { id: true, kind: true, toEmail: true, status: true, subject: true, error: true, attempts: true, createdAt: true, sentAt: true },
  });
}
