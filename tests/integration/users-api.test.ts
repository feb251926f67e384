import { describe, expect, it } from "vitest";
import { PATCH } from "@/app/api/v1/users/[id]/route";
import { GET, POST } from "@/app/api/v1/users/route";
import { authenticate } from "@/lib/auth/login";
import { createApiToken, resolveApiToken } from "@/lib/auth/tokens";
import { getDb } from "@/lib/db/client";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

describe("account administration API", () => {
  it("an admin creates a lead who can sign in; duplicates 409; bad input 422 naming the field", async () => {
    const admin = await makeUser("ADMIN");
    const r = await call(POST, "/api/v1/users", json(admin.token, "POST", { email: "New.Lead@Example.org", name: "Dr. New", role: "LEAD", password: "a-long-password-1" }));
    expect(r.status).toBe(201);
    expect(await authenticate({ email: "new.lead@example.org", password: "a-long-password-1", ip: "x" })).toMatchObject({ ok: true });
    expect((await call(POST, "/x", json(admin.token, "POST", { email: "new.lead@example.org", name: "Again", role: "LEAD", password: "a-long-password-1" }))).status).toBe(409);
    const bad = await call(POST, "/x", json(admin.token, "POST", { email: "not-an-email", name: "X", role: "LEAD", password: "short" }));
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/email is not a valid address.*password must have at least 10 characters/);
    const list = await call(GET, "/x", bearer(admin.token));
    expect((list.body.users as { email: string }[]).map((u) => u.email)).toContain("new.lead@example.org");
    expect(await getDb().auditEvent.count({ where: { action: "user.create", actorId: admin.id } })).toBe(1);
  });

  it("deactivation cuts the user off at once; an admin cannot deactivate themself", async () => {
    const admin = await makeUser("ADMIN");
    const grader = await makeUser("GRADER");
    const off = await call(PATCH, "/x", json(admin.token, "PATCH", { active: false }), { id: grader.id });
    expect(off).toMatchObject({ status: 200, body: { active: false } });
    expect((await call(GET, "/x", bearer(grader.token))).status).toBe(401); // the token died with the account
    const self = await call(PATCH, "/x", json(admin.token, "PATCH", { active: false }), { id: admin.id });
    expect(self.status).toBe(409);
    expect((await call(PATCH, "/x", json(admin.token, "PATCH", { active: true }), { id: "00000000-0000-4000-8000-000000000000" })).status).toBe(404);
  });

  it("deactivation revokes the user's API tokens for good, each audited; reactivation brings none back", async () => {
    const admin = await makeUser("ADMIN");
    const grader = await makeUser("GRADER");
    const second = await createApiToken(grader.id, { name: "script" });
    const old = await createApiToken(grader.id, { name: "old" });
    await getDb().apiToken.update({ where: { id: old.id }, data: { revokedAt: new Date("2026-01-01T00:00:00Z") } });

    expect((await call(PATCH, "/x", json(admin.token, "PATCH", { active: false }), { id: grader.id })).status).toBe(200);
    const tokens = await getDb().apiToken.findMany({ where: { userId: grader.id }, orderBy: { name: "asc" } });
    expect(tokens.every((t) => t.revokedAt !== null)).toBe(true);
    expect(tokens.find((t) => t.id === old.id)!.revokedAt).toEqual(new Date("2026-01-01T00:00:00Z")); // revoked before: left as it was
    const events = await getDb().auditEvent.findMany({ where: { action: "token.revoke", entityId: { in: tokens.map((t) => t.id) } }, orderBy: { entityId: "asc" } });
    expect(events.map((e) => ({ actorId: e.actorId, entityId: e.entityId, after: e.after }))).toEqual(
      tokens
        .filter((t) => t.id !== old.id)
        .map((t) => ({ actorId: admin.id, entityId: t.id, after: { revoked: true, reason: "user.deactivate" } }))
        .sort((a, b) => a.entityId.localeCompare(b.entityId)),
    );

    expect((await call(PATCH, "/x", json(admin.token, "PATCH", { active: true }), { id: grader.id })).status).toBe(200);
    expect(await resolveApiToken(grader.token)).toBeNull();
    expect(await resolveApiToken(second.token)).toBeNull();
    expect((await call(GET, "/x", bearer(second.token))).status).toBe(401);
    expect(await getDb().apiToken.count({ where: { userId: grader.id, revokedAt: null } })).toBe(0);
    // Nor is a token issued while the account is off, to wait for its return.
    expect((await call(PATCH, "/x", json(admin.token, "PATCH", { active: false }), { id: grader.id })).status).toBe(200);
    await expect(createApiToken(grader.id)).rejects.toThrow(/the account is deactivated/);
    expect((await call(PATCH, "/x", json(admin.token, "PATCH", { active: true }), { id: grader.id })).status).toBe(200);
    // The account itself is back: a new token works.
    const fresh = await createApiToken(grader.id);
    expect(await resolveApiToken(fresh.token)).toMatchObject({ id: grader.id });
  });
});
