import { describe, expect, it } from "vitest";
import { PATCH } from "@/app/api/v1/users/[id]/route";
import { GET, POST } from "@/app/api/v1/users/route";
import { authenticate } from "@/lib/auth/login";
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
});
