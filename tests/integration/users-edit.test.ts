import { describe, expect, it } from "vitest";
import { PATCH } from "@/app/api/v1/users/[id]/route";
import { GET, POST } from "@/app/api/v1/users/route";
import { authenticate } from "@/lib/auth/login";
import { createSession, resolveSession } from "@/lib/auth/sessions";
import { getDb } from "@/lib/db/client";
import { bearer, call, makeStudy, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });
const patch = (token: string, id: string, body: unknown) => call(PATCH, `/api/v1/users/${id}`, json(token, "PATCH", body), { id });

describe("an admin edits accounts", () => {
  it("renames and changes a role, audited with before and after", async () => {
    const admin = await makeUser("ADMIN");
    const lead = await makeUser("LEAD", "DrOld");
    const r = await patch(admin.token, lead.id, { name: "Dr New", role: "ADMIN" });
    expect(r).toMatchObject({ status: 200, body: { name: "Dr New", role: "ADMIN", active: true, passwordReset: false } });
    expect(await getDb().user.findUniqueOrThrow({ where: { id: lead.id }, select: { name: true, role: true } })).toEqual({ name: "Dr New", role: "ADMIN" });
    const event = await getDb().auditEvent.findFirstOrThrow({ where: { action: "user.update", entityId: lead.id } });
    expect([event.actorId, event.before, event.after]).toEqual([admin.id, { name: "DrOld", role: "LEAD" }, { name: "Dr New", role: "ADMIN" }]);
    // Nothing changed: nothing audited.
    await patch(admin.token, lead.id, { name: "Dr New" });
    expect(await getDb().auditEvent.count({ where: { action: "user.update", entityId: lead.id } })).toBe(1);
  });

  it("resets a password: the old one stops working, the user's sessions end, the password is never audited", async () => {
    const admin = await makeUser("ADMIN");
    const grader = await makeUser("GRADER");
    const session = await createSession(grader.id);
    expect(await resolveSession(session)).not.toBeNull();
    const short = await patch(admin.token, grader.id, { password: "short" });
    expect(short.status).toBe(422);
    expect(short.body.details).toEqual([{ path: "password", message: "password must have at least 10 characters" }]);
    expect(await resolveSession(session)).not.toBeNull(); // a refused reset changes nothing
    expect((await patch(admin.token, grader.id, { password: "a-brand-new-password" })).body).toMatchObject({ passwordReset: true });
    expect(await resolveSession(session)).toBeNull();
    expect((await authenticate({ email: grader.email, password: "a-brand-new-password", ip: "10.1.1.1" })).ok).toBe(true);
    const event = await getDb().auditEvent.findFirstOrThrow({ where: { action: "user.password.reset", entityId: grader.id } });
    expect(JSON.stringify({ ...event, id: String(event.id) })).not.toContain("a-brand-new-password");
  });

  it("deactivates (sessions revoked), refuses the admin's own deactivation and role change, and a role the account's studies cannot hold", async () => {
    const admin = await makeUser("ADMIN");
    const grader = await makeUser("GRADER");
    const session = await createSession(grader.id);
    expect((await patch(admin.token, grader.id, { active: false })).status).toBe(200);
    expect(await resolveSession(session)).toBeNull();
    expect(await getDb().authSession.count({ where: { userId: grader.id, revokedAt: null } })).toBe(0);

    expect((await patch(admin.token, admin.id, { active: false })).body).toMatchObject({ error: "you cannot deactivate your own account" });
    expect((await patch(admin.token, admin.id, { role: "LEAD" })).body).toMatchObject({ error: "you cannot change your own role" });
    expect((await patch(admin.token, admin.id, { name: "Still me" })).status).toBe(200);

    const busy = await makeUser("GRADER", "busy");
    const lead = await makeUser("LEAD");
    const study = await makeStudy(lead.id, "S");
    await getDb().studyMember.create({ data: { studyId: study.id, userId: busy.id, role: "GRADER" } });
    const refused = await patch(admin.token, busy.id, { role: "LEAD", name: "Renamed" });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/a grader in 1 study/);
    expect((await getDb().user.findUniqueOrThrow({ where: { id: busy.id } })).name).toBe("busy"); // nothing half-written

    expect((await patch(admin.token, busy.id, {})).status).toBe(422);
    expect((await patch(admin.token, busy.id, { role: "OWNER" })).status).toBe(422);
    expect((await patch(admin.token, busy.id, { name: "  " })).status).toBe(422);
    expect((await patch(lead.token, busy.id, { name: "x" })).status).toBe(403);
  });

  it("creating a user with a short password is a 422 naming the rule on the field", async () => {
    const admin = await makeUser("ADMIN");
    const r = await call(POST, "/api/v1/users", json(admin.token, "POST", { email: "x@example.org", name: "X", role: "LEAD", password: "short" }));
    expect(r.status).toBe(422);
    expect(r.body.details).toEqual([{ path: "password", message: "password must have at least 10 characters" }]);
    expect((await call(GET, "/x", bearer(admin.token))).status).toBe(200);
  });
});
