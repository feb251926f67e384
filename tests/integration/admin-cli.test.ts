import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveApiToken } from "@/lib/auth/tokens";
import { createSession, resolveSession } from "@/lib/auth/sessions";
import { runAdminCommand } from "@/lib/users/admin-cli";
import { authenticate } from "@/lib/auth/login";
import { getDb } from "@/lib/db/client";
import { useIsolatedDatabase } from "./helpers/db";

const db = useIsolatedDatabase();

/** Runs `npm run admin -- ...` as a user would (through tsx), against this file's database. */
function admin(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "scripts/admin.ts", ...args], {
      env: { ...process.env, DATABASE_URL: db.url() },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.stdin.end(stdin ?? "");
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe("npm run admin", () => {
  it("create-user makes a user who can sign in; the password is stored as argon2id", async () => {
    const r = await admin(["create-user", "--email", "Lead.One@Example.org", "--name", "Dr. One", "--role", "LEAD", "--password", "a-good-password-1"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Created LEAD lead\.one@example\.org/);
    const u = await getDb().user.findUniqueOrThrow({ where: { email: "lead.one@example.org" } });
    expect(u.passwordHash).toMatch(/^\$argon2id\$/);
    expect(u.passwordHash).not.toContain("a-good-password-1");
    expect(await authenticate({ email: "lead.one@example.org", password: "a-good-password-1", ip: "1" })).toMatchObject({ ok: true });
  });

  it("reads the password from stdin with --password-stdin, so it stays out of the shell history", async () => {
    const r = await admin(["create-user", "--email", "g@example.org", "--name", "G", "--role", "grader", "--password-stdin", "--specialty", "Anesthesia"], "stdin-password-9\n");
    expect(r.code).toBe(0);
    expect(await authenticate({ email: "g@example.org", password: "stdin-password-9", ip: "1" })).toMatchObject({ ok: true });
    const specs = await getDb().userSpecialty.findMany({ where: { user: { email: "g@example.org" } }, include: { specialty: true } });
    expect(specs.map((s) => s.specialty.name)).toEqual(["Anesthesia"]);
  });

  it("refuses bad input with one clear line and a non-zero exit", async () => {
    const dup = await admin(["create-user", "--email", "g@example.org", "--name", "G", "--role", "GRADER", "--password", "another-pass-1"]);
    expect(dup.code).toBe(1);
    expect(dup.stderr.trim()).toBe("admin: a user with email g@example.org already exists");
    const role = await admin(["create-user", "--email", "x@example.org", "--name", "X", "--role", "NURSE", "--password", "another-pass-1"]);
    expect(role.code).toBe(1);
    expect(role.stderr).toMatch(/role must be ADMIN, LEAD or GRADER/);
    const short = await admin(["create-user", "--email", "y@example.org", "--name", "Y", "--role", "LEAD", "--password", "short"]);
    expect(short.stderr).toMatch(/password must have at least 10 characters/);
    const missing = await admin(["create-user", "--email", "z@example.org"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/create-user needs --name/);
    const unknown = await admin(["make-coffee"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command make-coffee/);
    expect(await getDb().user.count({ where: { email: { in: ["x@example.org", "y@example.org", "z@example.org"] } } })).toBe(0);
  });

  it("create-token prints a token, once, that authenticates as the user; only its hash is stored", async () => {
    const r = await admin(["create-token", "--email", "lead.one@example.org", "--expires-days", "30"]);
    expect(r.code).toBe(0);
    const token = r.stdout.trim().split("\n").pop()!;
    expect(token).toMatch(/^cgt_[\w-]{43}$/);
    expect(await resolveApiToken(token)).toMatchObject({ email: "lead.one@example.org", role: "LEAD" });
    const rows = await getDb().apiToken.findMany({ where: { user: { email: "lead.one@example.org" } } });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    const revoke = await admin(["revoke-token", "--id", rows[0].id]);
    expect(revoke.code).toBe(0);
    expect(await resolveApiToken(token)).toBeNull();
  });

  it("deactivate-user cuts access at once and is audited; its API tokens stay revoked after activate-user", async () => {
    const token = (await admin(["create-token", "--email", "g@example.org"])).stdout.trim().split("\n").pop()!;
    expect(await resolveApiToken(token)).toMatchObject({ email: "g@example.org" });
    const r = await admin(["deactivate-user", "--email", "g@example.org"]);
    expect(r.code).toBe(0);
    expect(await authenticate({ email: "g@example.org", password: "stdin-password-9", ip: "2" })).toMatchObject({ ok: false });
    const events = await getDb().auditEvent.findMany({ where: { action: "user.deactivate" } });
    expect(events).toHaveLength(1);
    expect(events[0].before).toEqual({ active: true });
    const revoked = await getDb().auditEvent.findMany({ where: { action: "token.revoke" } });
    expect(revoked).toHaveLength(1);
    expect(revoked[0]).toMatchObject({ actorId: null, entityType: "ApiToken", after: { revoked: true, reason: "user.deactivate" } });

    expect((await admin(["activate-user", "--email", "g@example.org"])).code).toBe(0);
    expect(await authenticate({ email: "g@example.org", password: "stdin-password-9", ip: "2" })).toMatchObject({ ok: true });
    expect(await resolveApiToken(token)).toBeNull();
  });

  it("unlock-user clears the account's sign-in throttling from every address, audited", async () => {
    process.env.LOGIN_SLOW_AFTER = "100"; // no slow-down: the test is about refusal
    try {
      for (let i = 0; i < 10; i++) await authenticate({ email: "lead.one@example.org", password: "wrong-password", ip: "192.0.2.9" });
    } finally {
      delete process.env.LOGIN_SLOW_AFTER;
    }
    expect(await authenticate({ email: "lead.one@example.org", password: "a-good-password-1", ip: "192.0.2.9" })).toMatchObject({ reason: "throttled" });
    const r = await admin(["unlock-user", "--email", "Lead.One@example.org"]);
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe("Unlocked lead.one@example.org: forgot 10 failed sign-ins.");
    expect(await authenticate({ email: "lead.one@example.org", password: "a-good-password-1", ip: "192.0.2.9" })).toMatchObject({ ok: true });
    expect(await getDb().auditEvent.count({ where: { action: "user.unlock", actorId: null } })).toBe(1);
    expect((await admin(["unlock-user"])).stderr).toMatch(/unlock-user needs --email/);
  });

  it("unlink-sso removes an account's single sign-on links (one issuer or all), ends its sessions, audited", async () => {
    const user = await getDb().user.findUniqueOrThrow({ where: { email: "g@example.org" } });
    await getDb().oidcIdentity.createMany({
      data: [
        { issuer: "https://idp-a.example.org", subject: "sub-a", userId: user.id, email: "g@example.org" },
        { issuer: "https://idp-b.example.org", subject: "sub-b", userId: user.id, email: "g@example.org" },
      ],
    });
    const session = await createSession(user.id);
    const one = await admin(["unlink-sso", "--email", "G@example.org", "--issuer", "https://idp-a.example.org"]);
    expect(one.stderr).toBe("");
    expect(one.stdout.trim()).toBe("Unlinked g@example.org from https://idp-a.example.org sub-a; its sessions are ended.");
    expect((await getDb().oidcIdentity.findMany({ where: { userId: user.id } })).map((i) => i.subject)).toEqual(["sub-b"]);
    expect(await resolveSession(session)).toBeNull();
    expect(await runAdminCommand("unlink-sso", { email: "g@example.org" })).toEqual(["Unlinked g@example.org from https://idp-b.example.org sub-b; its sessions are ended."]);
    expect(await runAdminCommand("unlink-sso", { email: "g@example.org" })).toEqual(["g@example.org has no single sign-on identity: nothing to unlink."]);
    expect(await getDb().auditEvent.count({ where: { action: "user.sso_unlink", entityId: user.id } })).toBe(2);
    await expect(runAdminCommand("unlink-sso", {})).rejects.toThrow(/unlink-sso needs --email/);
  });
});
