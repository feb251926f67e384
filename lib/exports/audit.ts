import { csvHeader, csvRow } from "./csv";
import { redactPeople, type People } from "./people";
import type { ExportSession } from "./session";
import { jsonArray } from "./json";

/**
 * The `audit` dataset: the study's audit trail (AuditEvent rows of the study),
 * oldest first, read from a server-side cursor a batch at a time. Without
 * identities, who acted is a pseudonym and names, emails and user ids inside
 * before/after are replaced by pseudonyms too (lib/exports/people.ts).
 */
export const AUDIT_HEADER = [
  "event_id",
  "created_at",
  "actor",
  "actor_name",
  "actor_email",
  "actor_role",
  "action",
  "entity_type",
  "entity_id",
  "request_id",
  "before",
  "after",
] as const;

interface AuditRow {
  id: string;
  created_at: Date;
  actor_id: string | null;
  action: string;
  entity_type: string;
  entity_id: string | null;
  request_id: string | null;
  before: unknown;
  after: unknown;
}

export interface AuditRecord {
  event_id: number;
  created_at: string;
  actor: string | null;
  actor_name: string | null;
  actor_email: string | null;
  actor_role: string;
  action: string;
  entity_type: string;
  entity_id: string | null;
  request_id: string | null;
  before: unknown;
  after: unknown;
}

export function auditRecord(r: AuditRow, people: People, identities: boolean): AuditRecord {
  const actor = r.actor_id ? people.get(r.actor_id) : undefined;
  const entity = r.entity_id ? people.get(r.entity_id) : undefined;
  return {
    event_id: Number(r.id),
    created_at: r.created_at.toISOString(),
    actor: actor?.pseudonym ?? null,
    actor_name: identities ? (actor?.name ?? null) : null,
    actor_email: identities ? (actor?.email ?? null) : null,
    actor_role: actor ? actor.role.toLowerCase() : "system",
    action: r.action,
    entity_type: r.entity_type,
    entity_id: entity && !identities ? entity.pseudonym : r.entity_id,
    request_id: r.request_id,
    before: redactPeople(r.before, people, identities),
    after: redactPeople(r.after, people, identities),
  };
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

export async function* auditRecords(session: ExportSession, studyId: string, people: People, identities: boolean): AsyncGenerator<AuditRecord[]> {
  const rows = session.cursor<AuditRow & Record<string, unknown>>(
    `SELECT e.id::text AS id, "createdAt" AS created_at, "actorId" AS actor_id, action, "entityType" AS entity_type,
            "entityId" AS entity_id, "requestId" AS request_id, before, after
       FROM "AuditEvent" e WHERE "studyId" = $1::uuid ORDER BY e.id`,
    [studyId],
    2000,
  );
  for await (const batch of rows) yield batch.map((r) => auditRecord(r, people, identities));
}

export async function* auditChunks(session: ExportSession, studyId: string, people: People, identities: boolean, format: "csv" | "json"): AsyncGenerator<string> {
  const records = auditRecords(session, studyId, people, identities);
  if (format === "json") {
    yield* jsonArray(records);
    return;
  }
  yield csvHeader(AUDIT_HEADER);
  for await (const batch of records) {
    yield batch
      .map((r) => csvRow([r.event_id, r.created_at, r.actor, r.actor_name, r.actor_email, r.actor_role, r.action, r.entity_type, r.entity_id, r.request_id, json(r.before), json(r.after)]))
      .join("");
  }
}
