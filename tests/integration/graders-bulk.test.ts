import { beforeAll, describe, expect, it } from "vitest";
import { POST as bulkAdd } from "@/app/api/v1/studies/[id]/graders/bulk/route";
import { authenticate } from "@/lib/auth/login";
import { getDb } from "@/lib/db/client";
import { parseGraderLines } from "@/lib/graders/bulk-parse";
import { CANNOT_ADD } from "@/lib/graders/service";
import { bearer, call, makeStudy, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

type User = Awaited<ReturnType<typeof makeUser>>;
const post = (token: string, id: string, body: unknown) =>
  call(bulkAdd, `/api/v1/studies/${id}/graders/bulk`, bearer(token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }), { id });

let lead: User, otherLead: User, grader: User, lead2: User;
beforeAll(async () => {
  [lead, otherLead, grader, lead2] = await Promise.all([makeUser("LEAD", "lead"), makeUser("LEAD", "other"), makeUser("GRADER", "existing"), makeUser("LEAD", "notgrader")]);
});

async function members(studyId: string) {
  const rows = await getDb().studyMember.findMany({
    where: { studyId, role: "GRADER" },
    select: { active: true, user: { select: { email: true } }, specialties: { select: { specialty: { select: { name: true } } } } },
  });
  return Object.fromEntries(rows.map((r) => [r.user.email, { active: r.active, specialties: r.specialties.map((s) => s.specialty.name).sort() }]));
}

describe("parsing pasted lines", () => {
  it("reads emails, email,name,specialties, a header, a line of several emails, and names each bad line", () => {
    const { entries, problems } = parseGraderLines(
      ["email,name,specialties", "a@x.org,Ana Ruiz,Ophthalmology;Anesthesia", "", "b@x.org", "c@x.org, d@x.org", "not-an-email,Bob", 'e@x.org,"Eve, MD",Cardiology|Medication'].join("\r\n"),
    );
    expect(entries.map((e) => [e.line, e.email, e.name, e.specialties])).toEqual([
      [2, "a@x.org", "Ana Ruiz", ["Ophthalmology", "Anesthesia"]],
      [4, "b@x.org", undefined, undefined],
      [5, "c@x.org", undefined, undefined],
      [5, "d@x.org", undefined, undefined],
      [7, "e@x.org", "Eve, MD", ["Cardiology", "Medication"]],
    ]);
    expect(problems).toEqual([{ line: 6, email: "not-an-email", message: "email is not a valid address" }]);
    expect(parseGraderLines(" \n").problems[0].message).toMatch(/no graders/);
  });
});

describe("POST /api/v1/studies/{id}/graders/bulk", () => {
  it("adds new and existing graders with their specialties in one go, passwords once", async () => {
    const study = await makeStudy(lead.id, "Bulk");
    const res = await post(lead.token, study.id, {
      csv: `email,name,specialties\nnew1@test.clingrade.org,New One,Ophthalmology;Anesthesia\n${grader.email}\n${grader.email.replace("@", "+x@")},New Two`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const added = res.body.added as { line: number; email: string; accountCreated: boolean; initialPassword?: string; specialties: string[] }[];
    expect(added.map((a) => [a.line, a.accountCreated, Boolean(a.initialPassword)])).toEqual([
      [2, true, true],
      [3, false, false],
      [4, true, true],
    ]);
    expect(added[0].specialties).toEqual(["Anesthesia", "Ophthalmology"]);
    expect((await authenticate({ email: "new1@test.clingrade.org", password: added[0].initialPassword!, ip: "10.0.0.9" })).ok).toBe(true);
    const m = await members(study.id);
    expect(Object.keys(m).sort()).toEqual([grader.email, grader.email.replace("@", "+x@"), "new1@test.clingrade.org"].sort());
    expect(await getDb().auditEvent.count({ where: { studyId: study.id, action: "study.grader.add" } })).toBe(3);
  });

  it("refuses the whole list, naming each line, for problems in the lines themselves; nothing is written", async () => {
    const study = await makeStudy(lead.id, "Bulk refusals");
    await post(lead.token, study.id, { csv: grader.email });
    const usersBefore = await getDb().user.count();
    const res = await post(lead.token, study.id, {
      csv: [`ok@test.clingrade.org,Fine Person`, `nobody@test.clingrade.org`, grader.email, lead2.email, "ok@test.clingrade.org,Again", "bad email"].join("\n"),
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("3 lines need attention; no grader was added");
    // Only what the lead can see and fix: nothing about lines 2 and 4 (no account, another role), which would sort emails without writing.
    expect((res.body.details as { line: number; message: string }[]).map((d) => d.message)).toEqual([
      `line 3 (${grader.email}): already a grader of this study`,
      "line 5 (ok@test.clingrade.org): the same email as line 1",
      "line 6 (bad email): email is not a valid address",
    ]);
    expect(await getDb().user.count()).toBe(usersBefore);
    expect(Object.keys(await members(study.id))).toEqual([grader.email]);
  });

  it("adds what it can and lists the rest under one message, whether the email has no account or one that cannot be a grader", async () => {
    const study = await makeStudy(lead.id, "Bulk not added");
    const admin = await makeUser("ADMIN", "bulk-admin");
    const gone = await makeUser("GRADER", "bulk-gone");
    await getDb().user.update({ where: { id: gone.id }, data: { active: false } });
    const eventsBefore = await getDb().auditEvent.count();
    // Nameless lines only: an unknown email, an admin, a lead, a deactivated grader. Nothing can be added, nothing is written.
    const nameless = await post(lead.token, study.id, { csv: ["unknown-1@test.clingrade.org", admin.email, lead2.email, gone.email].join("\n") });
    expect(nameless.status, JSON.stringify(nameless.body)).toBe(200);
    expect(nameless.body.added).toEqual([]);
    const notAdded = nameless.body.notAdded as { line: number; email: string; message: string }[];
    expect(notAdded.map((n) => n.line)).toEqual([1, 2, 3, 4]);
    expect(new Set(notAdded.map((n) => n.message))).toEqual(new Set([CANNOT_ADD]));
    expect(await getDb().auditEvent.count()).toBe(eventsBefore);

    // With names: a new email is created and the existing grader joins; the admin's and the deactivated account's lines are listed, the same way.
    const named = await post(lead.token, study.id, { csv: [`fresh@test.clingrade.org,Fresh Person`, `${admin.email},Some Name`, grader.email, `${gone.email},Gone`].join("\n") });
    expect(named.status, JSON.stringify(named.body)).toBe(201);
    expect((named.body.added as { line: number; accountCreated: boolean }[]).map((a) => [a.line, a.accountCreated])).toEqual([
      [1, true],
      [3, false],
    ]);
    expect(named.body.notAdded).toEqual([
      { line: 2, email: admin.email, message: CANNOT_ADD },
      { line: 4, email: gone.email, message: CANNOT_ADD },
    ]);
    expect(Object.keys(await members(study.id)).sort()).toEqual(["fresh@test.clingrade.org", grader.email].sort());
    expect(await getDb().studyMember.count({ where: { studyId: study.id, userId: { in: [admin.id, gone.id] } } })).toBe(0);
  });

  it("brings back a removed grader, takes JSON too, and refuses another lead, an empty or a doubled body", async () => {
    const study = await makeStudy(lead.id, "Bulk JSON");
    await getDb().studyMember.create({ data: { studyId: study.id, userId: grader.id, role: "GRADER", active: false } });
    const ok = await post(lead.token, study.id, { graders: [{ email: grader.email.toUpperCase(), specialties: ["Cardiology"] }] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect((ok.body.added as { reactivated: boolean }[])[0].reactivated).toBe(true);
    expect((await members(study.id))[grader.email]).toEqual({ active: true, specialties: ["Cardiology"] });

    expect((await post(otherLead.token, study.id, { csv: "z@test.clingrade.org,Z" })).status).toBe(404);
    expect((await post(lead.token, study.id, {})).status).toBe(422);
    expect((await post(lead.token, study.id, { csv: "a@b.org,A", graders: [{ email: "a@b.org", name: "A" }] })).status).toBe(422);
    expect((await post(lead.token, study.id, { csv: "" })).status).toBe(422);
    expect((await post(grader.token, study.id, { csv: "z@test.clingrade.org,Z" })).status).toBe(403);
  });
});
