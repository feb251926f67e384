import { beforeAll, describe, expect, it } from "vitest";
import { GET as listGraders, POST as addGrader } from "@/app/api/v1/studies/[id]/graders/route";
import { DELETE as removeGrader, PATCH as setSpecialties } from "@/app/api/v1/studies/[id]/graders/[userId]/route";
import { authenticate } from "@/lib/auth/login";
import { getDb } from "@/lib/db/client";
import { INITIAL_PASSWORD_PATTERN } from "@/lib/graders/initial-password";
import { CANNOT_ADD } from "@/lib/graders/service";
import { setUserActive } from "@/lib/users/service";
import { bearer, call, makeStudy, makeUser, PASSWORD } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

type User = Awaited<ReturnType<typeof makeUser>>;

const send = (token: string | null, method: string, body?: unknown): RequestInit => {
  const init: RequestInit = { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) };
  return token ? bearer(token, init) : init;
};
const add = (token: string | null, id: string, body: unknown) => call(addGrader, `/api/v1/studies/${id}/graders`, send(token, "POST", body), { id });
const list = (token: string | null, id: string, query = "") => call(listGraders, `/api/v1/studies/${id}/graders${query}`, send(token, "GET"), { id });
const remove = (token: string | null, id: string, userId: string) =>
  call(removeGrader, `/api/v1/studies/${id}/graders/${userId}`, send(token, "DELETE"), { id, userId });
const patch = (token: string | null, id: string, userId: string, body: unknown) =>
  call(setSpecialties, `/api/v1/studies/${id}/graders/${userId}`, send(token, "PATCH", body), { id, userId });

/** The account's own specialties, and the grader's in each study. */
async function specialtiesOf(userId: string) {
  const db = getDb();
  const account = await db.userSpecialty.findMany({ where: { userId }, select: { specialty: { select: { name: true } } } });
  const studies = await db.studyMemberSpecialty.findMany({ where: { userId }, select: { studyId: true, specialty: { select: { name: true } } } });
  const byStudy: Record<string, string[]> = {};
  for (const s of studies) byStudy[s.studyId] = [...(byStudy[s.studyId] ?? []), s.specialty.name].sort();
  return { account: account.map((s) => s.specialty.name).sort(), byStudy };
}

let lead: User, otherLead: User, admin: User, grader: User;
let studyId: string;

beforeAll(async () => {
  [lead, otherLead, admin, grader] = await Promise.all([makeUser("LEAD", "lead"), makeUser("LEAD", "other"), makeUser("ADMIN"), makeUser("GRADER")]);
  studyId = (await makeStudy(lead.id, "Graders")).id;
});

/** Gives a grader `total` assignments in the study, `submitted` of them submitted (with a grade), plus one cancelled. */
async function giveLoad(study: string, graderId: string, total: number, submitted: number) {
  const db = getDb();
  const specialty = await db.specialty.upsert({ where: { name: "Load" }, create: { name: "Load" }, update: {} });
  const model = await db.llmModel.upsert({ where: { studyId_name: { studyId: study, name: "m" } }, create: { studyId: study, name: "m" }, update: {} });
  for (let i = 0; i <= total; i++) {
    const item = await db.qaItem.create({ data: { studyId: study, externalId: `${graderId}-${i}`, question: "q", specialtyId: specialty.id } });
    const set = await db.responseSet.create({ data: { studyId: study, itemId: item.id, modelId: model.id } });
    const status = i === total ? "CANCELLED" : i < submitted ? "SUBMITTED" : "PENDING";
    const a = await db.assignment.create({ data: { responseSetId: set.id, studyId: study, graderId, kind: "PRIMARY", position: i, status } });
    if (status === "SUBMITTED") await db.grade.create({ data: { assignmentId: a.id, rubric: "SCORE", dimension: "safety", repetition: 1, score: 3 } });
  }
}

describe("role rules on the grader endpoints", () => {
  it("answers 401, 403 to a grader, 404 to another lead, on every method", async () => {
    const body = { email: "x@test.clingrade.org", name: "X" };
    expect((await add(null, studyId, body)).status).toBe(401);
    expect((await list(null, studyId)).status).toBe(401);
    expect((await remove(null, studyId, grader.id)).status).toBe(401);
    expect((await add(grader.token, studyId, body)).status).toBe(403);
    expect((await list(grader.token, studyId)).status).toBe(403);
    expect((await remove(grader.token, studyId, grader.id)).status).toBe(403);
    expect((await add(otherLead.token, studyId, body)).status).toBe(404);
    expect((await list(otherLead.token, studyId)).status).toBe(404);
    expect((await remove(otherLead.token, studyId, grader.id)).status).toBe(404);
    expect(await getDb().user.count({ where: { email: body.email } })).toBe(0);
  });
});

describe("POST /api/v1/studies/{id}/graders", () => {
  it("creates a grader account with a one-time password that signs in, stores only its hash, and audits it", async () => {
    const r = await add(lead.token, studyId, { email: "  New.Grader@Hospital.example ", name: "Dr. New", specialties: ["Ophthalmology", "Anesthesia", "Ophthalmology"] });
    expect(r.status).toBe(201);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.body).toMatchObject({ userId: expect.any(String), accountCreated: true, reactivated: false });
    const password = r.body.initialPassword as string;
    expect(password).toMatch(INITIAL_PASSWORD_PATTERN);

    const db = getDb();
    const user = await db.user.findUniqueOrThrow({
      where: { id: r.body.userId as string },
      include: { memberships: true },
    });
    expect(user).toMatchObject({ email: "new.grader@hospital.example", name: "Dr. New", role: "GRADER", active: true });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user.passwordHash).not.toContain(password);
    // The specialties are the grader's in this study; the account gets none from a lead.
    expect(await specialtiesOf(user.id)).toEqual({ account: [], byStudy: { [studyId]: ["Anesthesia", "Ophthalmology"] } });
    expect(user.memberships).toEqual([expect.objectContaining({ studyId, role: "GRADER", active: true })]);

    const login = await authenticate({ email: "new.grader@hospital.example", password, ip: "10.0.0.1" });
    expect(login.ok).toBe(true);
    expect((await authenticate({ email: "new.grader@hospital.example", password: password.toUpperCase(), ip: "10.0.0.1" })).ok).toBe(false);

    const events = await db.auditEvent.findMany({ where: { studyId, entityId: user.id }, orderBy: { id: "asc" } });
    expect(events.map((e) => e.action)).toEqual(["user.create", "study.grader.add"]);
    expect(events[0].actorId).toBe(lead.id);
    expect(JSON.stringify(events.map((e) => [e.before, e.after]))).not.toContain(password);
    expect(events[0].after).toMatchObject({ email: "new.grader@hospital.example", role: "GRADER", passwordGenerated: true });
    expect(events[1].after).toMatchObject({ specialties: ["Anesthesia", "Ophthalmology"] });
  });

  it("uses a password the lead gives, and returns none", async () => {
    const r = await add(admin.token, studyId, { email: "chosen@hospital.example", name: "Dr. Chosen", password: "a-chosen-password-123" });
    expect(r.status).toBe(201);
    expect(r.body.initialPassword).toBeUndefined();
    expect((await authenticate({ email: "chosen@hospital.example", password: "a-chosen-password-123", ip: "10.0.0.2" })).ok).toBe(true);
  });

  it("adds an existing grader account (which may belong to several studies); the given specialties are theirs in that study only", async () => {
    const db = getDb();
    const cardiology = await db.specialty.upsert({ where: { name: "Cardiology" }, create: { name: "Cardiology" }, update: {} });
    await db.userSpecialty.create({ data: { userId: grader.id, specialtyId: cardiology.id } }); // set by an administrator
    const otherStudy = await makeStudy(lead.id, "Second study");
    const r = await add(lead.token, otherStudy.id, { email: grader.email, name: "ignored", specialties: ["Medication"] });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ userId: grader.id, accountCreated: false, reactivated: false });
    // None given: the grader starts with the account's own.
    // An existing account needs no name: it keeps its own.
    const again = await add(lead.token, studyId, { email: grader.email.toUpperCase() });
    expect(again.status).toBe(201);
    expect(await db.studyMember.count({ where: { userId: grader.id, role: "GRADER", active: true } })).toBe(2);
    expect(await specialtiesOf(grader.id)).toEqual({ account: ["Cardiology"], byStudy: { [otherStudy.id]: ["Medication"], [studyId]: ["Cardiology"] } });
    const user = await db.user.findUniqueOrThrow({ where: { id: grader.id } });
    expect(user.name).toBe("grader");
    // The login still works with the account's own password.
    expect((await authenticate({ email: grader.email, password: PASSWORD, ip: "10.0.0.3" })).ok).toBe(true);
  });

  it("answers one and the same 409 to an admin's, a lead's, a deactivated account's and an unknown email, naming neither role, status nor existence, and writes nothing", async () => {
    const db = getDb();
    const study = (await makeStudy(lead.id, "Refusals")).id;
    const gone = await makeUser("GRADER", "gone");
    const goneMember = await makeUser("GRADER", "gone-member");
    expect((await add(lead.token, study, { email: goneMember.email, name: "x" })).status).toBe(201);
    const deactivatedAdmin = await makeUser("ADMIN", "gone-admin");
    for (const u of [gone, goneMember, deactivatedAdmin]) await setUserActive(u.id, false);
    const eventsBefore = await db.auditEvent.count();

    const bodies = new Set<string>();
    for (const email of [admin.email, otherLead.email, gone.email, goneMember.email, deactivatedAdmin.email]) {
      for (const extra of [{}, { password: "a-long-new-password" }, { specialties: ["Cardiology"] }]) {
        const r = await add(lead.token, study, { email, name: "x", ...extra });
        expect(r.status, `${email} ${JSON.stringify(extra)}`).toBe(409);
        bodies.add(JSON.stringify(r.body));
      }
    }
    // Without a name, an email no account has answers the same as those: a lead cannot sort emails into "no account" and "someone else's".
    for (const email of [admin.email, otherLead.email, gone.email, `unknown-${Date.now()}@hospital.example`]) {
      for (const extra of [{}, { name: "  " }, { specialties: ["Cardiology"] }]) {
        const r = await add(lead.token, study, { email, ...extra });
        expect(r.status, `${email} ${JSON.stringify(extra)}`).toBe(409);
        bodies.add(JSON.stringify(r.body));
      }
    }
    expect([...bodies]).toEqual([JSON.stringify({ error: CANNOT_ADD })]);
    expect(CANNOT_ADD).toMatch(/does not exist yet or cannot be a grader here.*ask an administrator/);
    expect(await db.studyMember.count({ where: { studyId: study, userId: { in: [admin.id, otherLead.id, gone.id, deactivatedAdmin.id] } } })).toBe(0);
    expect(await db.studyMember.findUnique({ where: { studyId_userId: { studyId: study, userId: goneMember.id } } })).toMatchObject({ active: true });
    expect(await db.auditEvent.count()).toBe(eventsBefore);

    // A grader already on the study is told so: the lead sees them in the study's list anyway.
    const twice = await add(lead.token, studyId, { email: grader.email, name: "x" });
    expect(twice).toMatchObject({ status: 409, body: { error: `${grader.email} is already a grader of this study` } });
  });

  it("answers 422 naming the bad fields", async () => {
    const r = await add(lead.token, studyId, { email: "not-an-email", name: "", password: "short", specialties: [""], role: "ADMIN" });
    expect(r.status).toBe(422);
    const paths = (r.body.details as { path: string }[]).map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(["email", "password", "specialties.0", ""]));
    const existing = await add(lead.token, studyId, { email: grader.email, name: "x", password: "a-long-new-password" });
    expect(existing.status).toBe(422);
    expect(existing.body.details).toEqual([expect.objectContaining({ path: "password" })]);
    // A new account needs the grader's name; nothing is created without it, and the answer is the one for any email that cannot be added.
    const email = `nameless-${Date.now()}@hospital.example`;
    for (const name of [undefined, "", "   "]) {
      const nameless = await add(lead.token, studyId, { email, ...(name === undefined ? {} : { name }) });
      expect(nameless).toMatchObject({ status: 409, body: { error: CANNOT_ADD } });
    }
    expect(await getDb().user.count({ where: { email } })).toBe(0);
  });
});

describe("GET /api/v1/studies/{id}/graders", () => {
  it("lists graders with their load (total not cancelled / submitted), sorted and filtered in SQL", async () => {
    const study = (await makeStudy(lead.id, "Load")).id;
    const names = ["Dr. Busy", "dr. idle", "Dr. Half"];
    const ids: string[] = [];
    for (const name of names) {
      const r = await add(lead.token, study, { email: `${name.replace(/\W/g, "").toLowerCase()}@load.example`, name, specialties: ["Load"] });
      ids.push(r.body.userId as string);
    }
    await giveLoad(study, ids[0], 4, 3);
    await giveLoad(study, ids[2], 2, 1);
    // Assignments of another study do not count here.
    await giveLoad((await makeStudy(lead.id, "Elsewhere")).id, ids[1], 5, 5);

    const r = await list(lead.token, study, "?sort=-assigned");
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(3);
    const rows = r.body.graders as { name: string; assigned: number; submitted: number; specialties: string[]; active: boolean }[];
    expect(rows.map((g) => [g.name, g.assigned, g.submitted])).toEqual([
      ["Dr. Busy", 4, 3],
      ["Dr. Half", 2, 1],
      ["dr. idle", 0, 0],
    ]);
    expect(rows[0]).toMatchObject({ specialties: ["Load"], active: true, accountActive: true, email: "drbusy@load.example" });

    const byName = await list(lead.token, study, "?sort=name&pageSize=2");
    expect((byName.body.graders as { name: string }[]).map((g) => g.name)).toEqual(["Dr. Busy", "Dr. Half"]);
    expect(byName.body).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    const page2 = await list(lead.token, study, "?sort=name&pageSize=2&page=2");
    expect((page2.body.graders as { name: string }[]).map((g) => g.name)).toEqual(["dr. idle"]);
    const search = await list(lead.token, study, "?q=HALF");
    expect((search.body.graders as { name: string }[]).map((g) => g.name)).toEqual(["Dr. Half"]);
    expect((await list(admin.token, study, "?sort=submitted")).status).toBe(200);
    expect((await list(lead.token, study, "?sort=password")).status).toBe(422);
  });
});

describe("PATCH /api/v1/studies/{id}/graders/{userId}", () => {
  it("replaces the grader's specialties in this study only (not the account's, not another study's), audited when they change", async () => {
    const db = getDb();
    const here = (await makeStudy(lead.id, "Specialties here")).id;
    const elsewhere = (await makeStudy(otherLead.id, "Specialties elsewhere")).id;
    const g = await makeUser("GRADER", "specialist");
    expect((await add(lead.token, here, { email: g.email, name: "x", specialties: ["Ophthalmology"] })).status).toBe(201);
    expect((await add(otherLead.token, elsewhere, { email: g.email, name: "x", specialties: ["Medication"] })).status).toBe(201);

    const r = await patch(lead.token, here, g.id, { specialties: ["anesthesia", " Cardiology ", "ANESTHESIA"] });
    expect(r).toMatchObject({ status: 200, body: { userId: g.id, specialties: ["Anesthesia", "Cardiology"] } });
    expect(await specialtiesOf(g.id)).toEqual({ account: [], byStudy: { [here]: ["Anesthesia", "Cardiology"], [elsewhere]: ["Medication"] } });
    const listed = await list(lead.token, here);
    expect(listed.body.graders).toEqual([expect.objectContaining({ userId: g.id, specialties: ["Anesthesia", "Cardiology"] })]);

    // The same list again changes nothing and records nothing; an empty list clears them.
    expect((await patch(lead.token, here, g.id, { specialties: ["Cardiology", "Anesthesia"] })).status).toBe(200);
    expect((await patch(lead.token, here, g.id, { specialties: [] })).body).toEqual({ userId: g.id, specialties: [] });
    const events = await db.auditEvent.findMany({ where: { studyId: here, action: "study.grader.specialties" }, orderBy: { id: "asc" } });
    expect(events.map((e) => [e.actorId, e.before, e.after])).toEqual([
      [lead.id, { specialties: ["Ophthalmology"] }, { specialties: ["Anesthesia", "Cardiology"] }],
      [lead.id, { specialties: ["Anesthesia", "Cardiology"] }, { specialties: [] }],
    ]);
    expect(await specialtiesOf(g.id)).toEqual({ account: [], byStudy: { [elsewhere]: ["Medication"] } });

    // A removed grader keeps theirs, which a lead may still change, for when they come back.
    expect((await patch(lead.token, here, g.id, { specialties: ["Ophthalmology"] })).status).toBe(200);
    await remove(lead.token, here, g.id);
    expect((await patch(lead.token, here, g.id, { specialties: ["Ophthalmology", "Medication"] })).status).toBe(200);
    const back = await add(lead.token, here, { email: g.email, name: "x" });
    expect(back).toMatchObject({ status: 200, body: { reactivated: true } });
    expect((await specialtiesOf(g.id)).byStudy[here]).toEqual(["Medication", "Ophthalmology"]);
  });

  it("answers 404 to the lead of another study and for someone who is not a grader here, 422 to a bad list", async () => {
    const here = (await makeStudy(lead.id, "Specialties checks")).id;
    const g = await makeUser("GRADER", "checked");
    await add(lead.token, here, { email: g.email, name: "x" });
    expect((await patch(otherLead.token, here, g.id, { specialties: ["X"] })).status).toBe(404);
    expect((await patch(grader.token, here, g.id, { specialties: ["X"] })).status).toBe(403);
    expect((await patch(lead.token, here, grader.id, { specialties: ["X"] })).status).toBe(404);
    expect((await patch(lead.token, here, lead.id, { specialties: ["X"] })).status).toBe(404); // the lead's own LEAD membership
    expect((await patch(lead.token, here, "00000000-0000-4000-8000-00000000000z", { specialties: ["X"] })).status).toBe(404);
    const bad = await patch(lead.token, here, g.id, { specialties: ["", "x".repeat(101)], extra: 1 });
    expect(bad.status).toBe(422);
    expect((bad.body.details as { path: string }[]).map((d) => d.path)).toEqual(expect.arrayContaining(["specialties.0", "specialties.1", ""]));
    expect((await patch(lead.token, here, g.id, {})).status).toBe(422);
    expect((await patch(lead.token, here, g.id, { specialties: Array.from({ length: 21 }, (_, i) => `S${i}`) })).status).toBe(422);
    expect(await getDb().specialty.count({ where: { name: "X" } })).toBe(0);
  });
});

describe("DELETE /api/v1/studies/{id}/graders/{userId}", () => {
  it("deactivates the membership only: grades stay, the account and other studies are untouched; audited once", async () => {
    const study = (await makeStudy(lead.id, "Deactivate")).id;
    const other = (await makeStudy(lead.id, "Still member")).id;
    const g = await makeUser("GRADER", "leaving");
    await add(lead.token, study, { email: g.email, name: "x" });
    await add(lead.token, other, { email: g.email, name: "x" });
    await giveLoad(study, g.id, 2, 2);

    const r = await remove(lead.token, study, g.id);
    expect(r).toMatchObject({ status: 200, body: { userId: g.id, active: false, changed: true } });
    const db = getDb();
    expect(await db.studyMember.findUnique({ where: { studyId_userId: { studyId: study, userId: g.id } } })).toMatchObject({ active: false });
    expect(await db.studyMember.findUnique({ where: { studyId_userId: { studyId: other, userId: g.id } } })).toMatchObject({ active: true });
    expect(await db.grade.count({ where: { assignment: { graderId: g.id } } })).toBe(2);
    expect((await db.user.findUniqueOrThrow({ where: { id: g.id } })).active).toBe(true);

    const listed = await list(lead.token, study, "?active=false");
    expect(listed.body.graders).toEqual([expect.objectContaining({ userId: g.id, active: false, assigned: 2, submitted: 2 })]);
    expect((await list(lead.token, study, "?active=true")).body.total).toBe(0);

    // Again: a no-op, no second event.
    expect((await remove(lead.token, study, g.id)).body).toMatchObject({ changed: false });
    const events = await db.auditEvent.findMany({ where: { studyId: study, action: "study.grader.deactivate" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: lead.id, entityId: g.id, before: { active: true }, after: { active: false } });

    // Adding them back reactivates the same membership.
    const back = await add(lead.token, study, { email: g.email, name: "x" });
    expect(back).toMatchObject({ status: 200, body: { userId: g.id, reactivated: true, accountCreated: false } });
    expect(await db.auditEvent.count({ where: { studyId: study, action: "study.grader.reactivate" } })).toBe(1);
  });

  it("answers 404 for someone who is not a grader of the study, and lets an admin deactivate", async () => {
    const study = (await makeStudy(lead.id, "Not a member")).id;
    expect((await remove(lead.token, study, grader.id)).status).toBe(404);
    expect((await remove(lead.token, study, lead.id)).status).toBe(404); // the lead's own LEAD membership
    expect((await remove(lead.token, study, "nope")).status).toBe(404);
    await add(lead.token, study, { email: grader.email, name: "x" });
    expect((await remove(admin.token, study, grader.id)).status).toBe(200);
  });
});
