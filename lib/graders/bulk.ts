import { recordAudit } from "@/lib/audit/record";
import { hashPassword } from "@/lib/auth/password";
import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/errors/api-error";
import { mailEnabled } from "@/lib/mail/config";
import { entriesFromJson, parseGraderLines, problemText, type BulkLine, type LineProblem } from "./bulk-parse";
import { generateInitialPassword } from "./initial-password";
import type { BulkAddGradersInput } from "./schema";
import { CANNOT_ADD, createGraderAccount, type Actor } from "./service";
import { copyAccountSpecialties, setStudySpecialties, studySpecialtyNames } from "./specialties";

/**
 * Adds many graders to a study at once. The lines' own problems (their text, a
 * duplicate email, a grader already in the study) are checked before anything
 * is written, and any is a 422 naming each bad line, nothing written. Each other
 * line then does what adding that one grader does (lib/graders/service.ts): a
 * new email with a name creates a grader account with a generated password
 * (returned once), an existing grader account joins (or its removed membership
 * comes back), each with the specialties the line gives (none given: a
 * newcomer starts with their account's own), every change audited, in one
 * transaction. A line that cannot be added (no account and no name, or an
 * account that cannot be a grader here) is reported in `notAdded` with the one
 * message of the single add, and the others are added: were it a refusal of
 * the whole list, the lines it leaves out would tell a lead which emails have
 * no account without writing anything.
 */

export interface BulkAddedGrader {
  line: number;
  email: string;
  userId: string;
  accountCreated: boolean;
  reactivated: boolean;
  specialties: string[];
  /** Only for a new account with e-mail off: shown once, never stored in plain text. */
  initialPassword?: string;
  /** A new account with e-mail on: the invitation sent to set a password. */
  invitationId?: string;
}

export interface NotAddedGrader {
  line: number;
  email: string;
  message: string;
}

function refuse(problems: LineProblem[]): never {
  problems.sort((a, b) => a.line - b.line);
  throw new ApiError(
    422,
    `${problems.length} line${problems.length === 1 ? "" : "s"} need${problems.length === 1 ? "s" : ""} attention; no grader was added`,
    problems.map((p) => ({ line: p.line, ...(p.email ? { email: p.email } : {}), message: problemText(p) })),
  );
}

interface Account {
  id: string;
  email: string;
  role: string;
  active: boolean;
  member: boolean | null;
}

async function accountsByEmail(tx: Prisma.TransactionClient | ReturnType<typeof getDb>, studyId: string, emails: string[], lock: boolean): Promise<Map<string, Account>> {
  const rows = await tx.$queryRaw<Account[]>(Prisma.sql`
    SELECT u.id, u.email, u.role::text AS role, u.active, m.active AS member
    FROM "User" u LEFT JOIN "StudyMember" m ON m."studyId" = ${studyId}::uuid AND m."userId" = u.id
    WHERE u.email = ANY(${emails}::text[])
    ORDER BY u.id ${lock ? Prisma.sql`FOR SHARE OF u` : Prisma.empty}`);
  return new Map(rows.map((r) => [r.email, r]));
}

/**
 * Each line against the accounts as they are: the problems the lead can see and
 * fix (a duplicate, a grader already in the study), and the lines that cannot
 * be added, all with the same message whatever the account (see CANNOT_ADD).
 */
function sortLines(entries: BulkLine[], accounts: Map<string, Account>): { problems: LineProblem[]; cannot: Set<number> } {
  const problems: LineProblem[] = [];
  const cannot = new Set<number>();
  const seen = new Map<string, number>();
  for (const [i, e] of entries.entries()) {
    const earlier = seen.get(e.email);
    if (earlier !== undefined) {
      problems.push({ line: e.line, email: e.email, message: `the same email as line ${earlier}` });
      continue;
    }
    seen.set(e.email, e.line);
    const account = accounts.get(e.email);
    if (!account ? !e.name?.trim() : account.role !== "GRADER" || !account.active) cannot.add(i);
    else if (account?.member === true) problems.push({ line: e.line, email: e.email, message: "already a grader of this study" });
  }
  return { problems, cannot };
}

export async function addGradersBulk(
  actor: Actor,
  studyId: string,
  input: BulkAddGradersInput,
): Promise<{ added: BulkAddedGrader[]; notAdded: NotAddedGrader[] }> {
  const { entries, problems } = input.csv !== undefined ? parseGraderLines(input.csv) : { entries: entriesFromJson(input.graders ?? []), problems: [] };
  const emails = [...new Set(entries.map((e) => e.email))];
  const before = await accountsByEmail(getDb(), studyId, emails, false);
  const first = sortLines(entries, before);
  problems.push(...first.problems);
  if (problems.length) refuse(problems);

  const invite = mailEnabled();
  // Hash the new accounts' passwords before the transaction, so it holds its locks for writes only.
  const passwords = new Map<string, { plain: string; hash: string }>();
  for (const [i, e] of entries.entries()) {
    if (before.has(e.email) || first.cannot.has(i)) continue;
    const plain = generateInitialPassword();
    passwords.set(e.email, { plain, hash: await hashPassword(plain) });
  }

  try {
    const added = await getDb().$transaction(
      async (tx) => {
        // Read again under the accounts' locks: what changed since is judged as if it had been there from the start.
        const accounts = await accountsByEmail(tx, studyId, emails, true);
        const { problems: late, cannot } = sortLines(entries, accounts);
        for (const [i, e] of entries.entries()) {
          if (!cannot.has(i) && !accounts.has(e.email) && !passwords.has(e.email)) late.push({ line: e.line, email: e.email, message: "an account with this email was just created; try again" });
        }
        if (late.length) refuse(late);
        const out: BulkAddedGrader[] = [];
        const notAdded: NotAddedGrader[] = [];
        for (const [i, e] of entries.entries()) {
          if (cannot.has(i)) {
            notAdded.push({ line: e.line, email: e.email, message: CANNOT_ADD });
            continue;
          }
          const account = accounts.get(e.email);
          if (!account) {
            const pw = passwords.get(e.email)!;
            const { user, specialties, invitationId } = await createGraderAccount(tx, actor, studyId, {
              email: e.email,
              name: e.name!.trim(),
              passwordHash: pw.hash,
              specialties: e.specialties ?? [],
              passwordGenerated: true,
              invite,
            });
            out.push({
              line: e.line,
              email: e.email,
              userId: user.id,
              accountCreated: true,
              reactivated: false,
              specialties,
              ...(invitationId ? { invitationId } : { initialPassword: pw.plain }),
            });
            continue;
          }
          const reactivated = account.member === false;
          if (reactivated) await tx.studyMember.update({ where: { studyId_userId: { studyId, userId: account.id } }, data: { active: true } });
          else await tx.studyMember.create({ data: { studyId, userId: account.id, role: "GRADER" } });
          let specialties: string[];
          if (e.specialties) specialties = await setStudySpecialties(tx, studyId, account.id, e.specialties);
          else {
            if (!reactivated) await copyAccountSpecialties(tx, studyId, [account.id]);
            specialties = await studySpecialtyNames(tx, studyId, account.id);
          }
          await recordAudit(tx, {
            actorId: actor.id,
            action: reactivated ? "study.grader.reactivate" : "study.grader.add",
            entityType: "StudyMember",
            entityId: account.id,
            studyId,
            before: reactivated ? { active: false } : null,
            after: { userId: account.id, email: e.email, role: "GRADER", active: true, specialties },
            requestId: actor.requestId,
          });
          out.push({ line: e.line, email: e.email, userId: account.id, accountCreated: false, reactivated, specialties });
        }
        return { added: out, notAdded };
      },
      { timeout: 60_000 },
    );
    return added;
  } catch (err) {
    // Another request added one of these graders or created one of these accounts meanwhile: nothing of ours was written.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      throw new ApiError(409, "another change to these graders happened at the same time; nothing was added: try again");
    }
    throw err;
  }
}
