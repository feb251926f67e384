import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as acceptRoute } from "@/app/api/v1/invitations/accept/route";
import { POST as openRoute } from "@/app/api/v1/invitations/open/route";
import { POST as addGraderRoute } from "@/app/api/v1/studies/[id]/graders/route";
import { POST as bulkRoute } from "@/app/api/v1/studies/[id]/graders/bulk/route";
import { GET as listRoute } from "@/app/api/v1/studies/[id]/invitations/route";
import { POST as resendRoute } from "@/app/api/v1/studies/[id]/invitations/[invitationId]/resend/route";
import { POST as revokeRoute } from "@/app/api/v1/studies/[id]/invitations/[invitationId]/revoke/route";
import { authenticate } from "@/lib/auth/login";
import { getDb } from "@/lib/db/client";
import { mailConfigFromEnv } from "@/lib/mail/config";
import { sendDueMail } from "@/lib/mail/sender";
import { hashLinkToken } from "@/lib/mail/tokens";
import { bearer, call } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { restoreEnv, startSmtpCatcher, tokenIn } from "./helpers/smtp-catcher";
import { makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
let f: Awaited<ReturnType<typeof makeGradableStudy>>;

const saved = { SMTP_URL: process.env.SMTP_URL, MAIL_FROM: process.env.MAIL_FROM, NEXTAUTH_URL: process.env.NEXTAUTH_URL, CLINGRADE_PEER_HEADER: process.env.CLINGRADE_PEER_HEADER };

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "Clingrade <grading@test.clingrade.org>";
  process.env.NEXTAUTH_URL = "http://clingrade.test";
  // What scripts/start.ts stamps on each request: the connection's address.
  process.env.CLINGRADE_PEER_HEADER = "x-test-peer";
  f = await makeGradableStudy({ items: 1, models: 2, graders: 1 });
  // A lead names the study after the systems under test; graders must never read that name.
  await getDb().study.update({ where: { id: f.study.id }, data: { name: "Zeta-Model-Alpha vs Omega-LLM-Beta trial", graderTitle: "Chest pain answers" } });
});
afterAll(async () => {
  restoreEnv(saved);
  await smtp.close();
});

const config = () => mailConfigFromEnv()!;
const json = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const from = (ip: string, body: unknown): RequestInit => ({ ...json(body), headers: { "content-type": "application/json", "x-test-peer": ip } });
const open = (token: string, ip = "203.0.113.1") => call(openRoute, "/api/v1/invitations/open", from(ip, { token }));
const accept = (token: string, password: string, ip = "203.0.113.1") => call(acceptRoute, "/api/v1/invitations/accept", from(ip, { token, password }));

async function invite(email: string, name = "Ana Ruiz") {
  const res = await call(addGraderRoute, `/api/v1/studies/${f.study.id}/graders`, bearer(f.lead.token, json({ email, name })), { id: f.study.id });
  expect(res.status).toBe(201);
  return res.body as { userId: string; invitationId?: string; initialPassword?: string };
}

async function stateOf(invitationId: string) {
  const res = await call(listRoute, `/api/v1/studies/${f.study.id}/invitations`, bearer(f.lead.token), { id: f.study.id });
  expect(res.status).toBe(200);
  return (res.body.invitations as { id: string; state: string }[]).find((i) => i.id === invitationId)?.state;
}

describe("invitations by e-mail", () => {
  it("adding a grader sends an invitation instead of showing a password; its link sets a password once", async () => {
    const added = await invite("ana@hospital.example");
    expect(added.initialPassword).toBeUndefined();
    expect(added.invitationId).toBeTruthy();
    expect(await stateOf(added.invitationId!)).toBe("queued");

    expect(await sendDueMail(config())).toEqual(["sent"]);
    const [mail] = smtp.to("ana@hospital.example");
    expect(mail.subject).toContain("Chest pain answers");
    const token = tokenIn(mail.text);
    expect(mail.html).toContain(`/invitation#${token}`);
    expect(await stateOf(added.invitationId!)).toBe("sent");

    // Only the token's SHA-256 is stored; the token itself is nowhere in the database.
    const inv = await getDb().invitation.findUniqueOrThrow({ where: { id: added.invitationId } });
    expect(inv.tokenHash).toBe(hashLinkToken(token));
    const dump = await getDb().$queryRaw<{ hit: number }[]>`
      SELECT ((SELECT count(*) FROM "MailMessage" m WHERE m::text LIKE ${"%" + token + "%"})
            + (SELECT count(*) FROM "AuditEvent" a WHERE a::text LIKE ${"%" + token + "%"})
            + (SELECT count(*) FROM "Invitation" i WHERE i::text LIKE ${"%" + token + "%"}))::int AS hit`;
    expect(dump[0].hit).toBe(0);

    const opened = await open(token);
    expect(opened.status).toBe(200);
    expect(opened.body).toEqual({ passwords: true, sso: null });
    expect(await stateOf(added.invitationId!)).toBe("opened");

    const first = await accept(token, "my-own-long-password");
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ email: "ana@hospital.example" });
    expect(await stateOf(added.invitationId!)).toBe("accepted");
    expect((await authenticate({ email: "ana@hospital.example", password: "my-own-long-password", ip: "198.51.100.9" })).ok).toBe(true);

    const again = await accept(token, "someone-elses-password");
    expect(again.status).toBe(404);
    expect((await authenticate({ email: "ana@hospital.example", password: "someone-elses-password", ip: "198.51.100.9" })).ok).toBe(false);
    expect((await authenticate({ email: "ana@hospital.example", password: "my-own-long-password", ip: "198.51.100.9" })).ok).toBe(true);
  });

  it("two submissions of one link at once set one password", async () => {
    const added = await invite("twice@hospital.example", "Twice");
    await sendDueMail(config());
    const token = tokenIn(smtp.to("twice@hospital.example")[0].text);
    const results = await Promise.all([accept(token, "first-long-password"), accept(token, "second-long-password")]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
    expect(await stateOf(added.invitationId!)).toBe("accepted");
  });

  it("an unknown, used, expired, revoked or replaced link gets one answer", async () => {
    const a = await invite("expired@hospital.example", "Ex Pired");
    const b = await invite("revoked@hospital.example", "Re Voked");
    const c = await invite("resent@hospital.example", "Re Sent");
    await sendDueMail(config());
    const expiredToken = tokenIn(smtp.to("expired@hospital.example")[0].text);
    const revokedToken = tokenIn(smtp.to("revoked@hospital.example")[0].text);
    const oldToken = tokenIn(smtp.to("resent@hospital.example")[0].text);
    const usedToken = tokenIn(smtp.to("ana@hospital.example")[0].text);

    await getDb().invitation.update({ where: { id: a.invitationId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await stateOf(a.invitationId!)).toBe("expired");
    const revoked = await call(revokeRoute, "/x", bearer(f.lead.token, { method: "POST" }), { id: f.study.id, invitationId: b.invitationId! });
    expect(revoked.body).toEqual({ id: b.invitationId, state: "revoked" });
    const resent = await call(resendRoute, "/x", bearer(f.lead.token, { method: "POST" }), { id: f.study.id, invitationId: c.invitationId! });
    expect(resent.status).toBe(200);
    await sendDueMail(config());
    const newToken = tokenIn(smtp.to("resent@hospital.example")[1].text);
    expect(newToken).not.toBe(oldToken);

    const unknown = "A".repeat(43);
    const answers = [];
    for (const [i, t] of [unknown, usedToken, expiredToken, revokedToken, oldToken, "not-even-a-token"].entries()) {
      const ip = `198.51.100.${i + 10}`;
      for (const r of [await open(t, ip), await accept(t, "a-long-enough-password", ip)]) answers.push({ status: r.status, body: r.body });
    }
    expect(new Set(answers.map((x) => JSON.stringify(x))).size).toBe(1);
    expect(answers[0].status).toBe(404);
    // The re-sent link works; the revoked one still does not after all that.
    expect((await accept(newToken, "a-long-enough-password")).status).toBe(200);
    expect(await stateOf(b.invitationId!)).toBe("revoked");
  });

  it("bad links are throttled per address like sign-ins", async () => {
    process.env.LOGIN_REFUSE_AFTER = "3";
    try {
      for (let i = 0; i < 3; i++) expect((await open("B".repeat(43), "203.0.113.77")).status).toBe(404);
      const refused = await open("B".repeat(43), "203.0.113.77");
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      delete process.env.LOGIN_REFUSE_AFTER;
    }
  });

  it("a recipient the SMTP server refuses shows as bounced; bulk adds invite too", async () => {
    const res = await call(
      bulkRoute,
      `/api/v1/studies/${f.study.id}/graders/bulk`,
      bearer(f.lead.token, json({ csv: "bounce@hospital.example,Bo Unce\nbulk@hospital.example,Bul K" })),
      { id: f.study.id },
    );
    expect(res.status).toBe(201);
    const added = res.body.added as { email: string; invitationId?: string; initialPassword?: string }[];
    expect(added.every((a) => a.invitationId && !a.initialPassword)).toBe(true);
    expect((await sendDueMail(config())).sort()).toEqual(["bounced", "sent"]);
    expect(await stateOf(added.find((a) => a.email.startsWith("bounce"))!.invitationId!)).toBe("bounced");
    expect(await stateOf(added.find((a) => a.email.startsWith("bulk"))!.invitationId!)).toBe("sent");
    // The audit tells what was sent and what bounced, by kind and invitation, without the message itself.
    const audited = await getDb().auditEvent.findMany({ where: { action: { in: ["mail.sent", "mail.bounced"] }, after: { path: ["invitationId"], string_contains: "-" } }, orderBy: { id: "asc" } });
    const byInvitation = new Map(audited.map((e) => [(e.after as { invitationId: string }).invitationId, e]));
    const bounced = byInvitation.get(added.find((a) => a.email.startsWith("bounce"))!.invitationId!)!;
    const sent = byInvitation.get(added.find((a) => a.email.startsWith("bulk"))!.invitationId!)!;
    expect([bounced.action, sent.action]).toEqual(["mail.bounced", "mail.sent"]);
    expect(sent.studyId).toBe(f.study.id);
    expect(sent.after).toMatchObject({ kind: "invitation" });
    const sentMessage = smtp.to("bulk@hospital.example")[0];
    const link = /https?:\/\/\S+/.exec(sentMessage.text)![0];
    expect(JSON.stringify(sent.after)).not.toContain(link);
  });

  it("no message names the study or a model", async () => {
    const models = await getDb().llmModel.findMany({ where: { studyId: f.study.id } });
    expect(smtp.messages.length).toBeGreaterThan(3);
    for (const m of smtp.messages) {
      for (const secret of ["Zeta-Model-Alpha vs Omega-LLM-Beta trial", ...models.flatMap((x) => [x.name, x.version])]) {
        expect(`${m.subject}\n${m.text}\n${m.html}`).not.toContain(secret);
      }
    }
  });
});

describe("an account an administrator creates", () => {
  it("without a password: invited by e-mail; with e-mail off: refused, naming why", async () => {
    const { POST: createUserRoute } = await import("@/app/api/v1/users/route");
    const { makeUser } = await import("./helpers/fixtures");
    const admin = await makeUser("ADMIN");
    const body = (email: string) => bearer(admin.token, json({ email, name: "New Lead", role: "LEAD" }));
    const created = await call(createUserRoute, "/api/v1/users", body("new-lead@hospital.example"));
    expect(created.status).toBe(201);
    expect(created.body.invitationId).toBeTruthy();
    expect(await sendDueMail(config())).toEqual(["sent"]);
    const [mail] = smtp.to("new-lead@hospital.example");
    expect(mail.subject).toBe("Your Clingrade account");
    expect((await accept(tokenIn(mail.text), "lead-chosen-password", "198.51.100.77")).status).toBe(200);
    expect((await authenticate({ email: "new-lead@hospital.example", password: "lead-chosen-password", ip: "198.51.100.9" })).ok).toBe(true);

    // E-mail off is no mail setting at all (MAIL_FROM alone would be a wrong setting, not "off").
    const on = { SMTP_URL: process.env.SMTP_URL, MAIL_FROM: process.env.MAIL_FROM };
    delete process.env.SMTP_URL;
    delete process.env.MAIL_FROM;
    try {
      expect(mailConfigFromEnv()).toBeNull();
      const refused = await call(createUserRoute, "/api/v1/users", body("other-lead@hospital.example"));
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.body)).toContain("e-mail is off on this server");
    } finally {
      restoreEnv(on);
    }
    expect(mailConfigFromEnv()).not.toBeNull();
  });
});
