import { escapeLiteral } from "pg";
import { graderPseudonym } from "@/lib/users/pseudonym";

/**
 * Everyone an export of a study may name: its members, the graders of its
 * assignments and the actors of its audit events. By default an export shows
 * only pseudonyms: graders get graderPseudonym() (the one the escalation pages
 * show), leads and admins "Lead XXXX" / "Admin XXXX" from the same per-study
 * hash. Names and emails appear only when the lead asks (identities=1).
 */
export interface Person {
  id: string;
  pseudonym: string;
  name: string;
  email: string;
  role: "ADMIN" | "LEAD" | "GRADER";
}

export type People = Map<string, Person>;

export type RawQuery = <T extends Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

export function personPseudonym(studyId: string, userId: string, role: Person["role"]): string {
  const grader = graderPseudonym(studyId, userId);
  return role === "GRADER" ? grader : grader.replace(/^Grader/, role === "LEAD" ? "Lead" : "Admin");
}

export async function loadPeople(query: RawQuery, studyId: string): Promise<People> {
  const rows = await query<{ id: string; name: string; email: string; role: Person["role"]; grades: boolean }>(
    `WITH graders AS (SELECT DISTINCT a."graderId" AS id FROM "Assignment" a WHERE a."studyId" = $1::uuid
                     UNION SELECT c."graderId" FROM "ComparisonAssignment" c WHERE c."studyId" = $1::uuid)
     SELECT u.id, u.name, u.email, u.role::text AS role, u.id IN (SELECT id FROM graders) AS grades FROM "User" u
      WHERE u.id IN (SELECT "userId" FROM "StudyMember" WHERE "studyId" = $1::uuid
                     UNION SELECT id FROM graders
                     UNION SELECT "actorId" FROM "AuditEvent" WHERE "studyId" = $1::uuid AND "actorId" IS NOT NULL)`,
    [studyId],
  );
  // Whoever grades in the study is "Grader XXXX", as on the escalation pages, whatever their account's role.
  return new Map(rows.map(({ grades, ...r }) => [r.id, { ...r, pseudonym: grades ? graderPseudonym(studyId, r.id) : personPseudonym(studyId, r.id, r.role) }]));
}

/**
 * The people as an inline SQL table `(id, pseudonym, name, email)` to join in
 * a COPY statement (which takes no bind parameters): every value is a quoted
 * literal; name and email are NULL unless identities are exported.
 */
export function peopleValuesSql(people: People, identities: boolean): string {
  const rows = [...people.values()].map(
    (p) =>
      `(${escapeLiteral(p.id)}::uuid, ${escapeLiteral(p.pseudonym)}, ${identities ? escapeLiteral(p.name) : "NULL::text"}, ${identities ? escapeLiteral(p.email) : "NULL::text"})`,
  );
  if (rows.length === 0) rows.push("(NULL::uuid, NULL::text, NULL::text, NULL::text)");
  return `(VALUES ${rows.join(", ")}) AS people(id, pseudonym, name, email)`;
}

/**
 * Takes names, emails and user ids out of a JSON value (an audit event's
 * before/after, an escalation's per-grader values): a user id or email
 * anywhere, as a key or a value, becomes that person's pseudonym, and so does
 * a person's name under a "name" key. With identities, the value is unchanged.
 */
export function redactPeople(value: unknown, people: People, identities: boolean): unknown {
  if (identities || value === null || value === undefined) return value;
  const byToken = new Map<string, string>();
  const byName = new Map<string, string>();
  for (const p of people.values()) {
    byToken.set(p.id, p.pseudonym);
    byToken.set(p.email.toLowerCase(), p.pseudonym);
    byName.set(p.name, p.pseudonym);
  }
  const walk = (v: unknown, key: string | null): unknown => {
    if (typeof v === "string") return byToken.get(v) ?? byToken.get(v.toLowerCase()) ?? (key === "name" ? (byName.get(v) ?? v) : v);
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v && typeof v === "object") {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [byToken.get(k) ?? k, walk(x, k)]));
    }
    return v;
  };
  return walk(value, null);
}
