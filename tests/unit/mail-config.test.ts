import { describe, expect, it } from "vitest";
import { MailConfigError, mailConfigFromEnv } from "@/lib/mail/config";
import { renderMail } from "@/lib/mail/templates";
import { signUnsubscribe, verifyUnsubscribe } from "@/lib/mail/tokens";

describe("mail settings", () => {
  it("is off with nothing set, and refuses half a configuration naming what is wrong", () => {
    expect(mailConfigFromEnv({})).toBeNull();
    expect(() => mailConfigFromEnv({ MAIL_FROM: "a@b.org" })).toThrow(/MAIL_FROM set without SMTP_URL or SMTP_HOST/);
    expect(() => mailConfigFromEnv({ SMTP_HOST: "smtp.example.org" })).toThrow(/MAIL_FROM is required/);
    expect(() => mailConfigFromEnv({ SMTP_URL: "http://x", MAIL_FROM: "a@b.org" })).toThrow(/smtp:\/\/ or smtps:\/\//);
    expect(() => mailConfigFromEnv({ SMTP_URL: "smtp://x", SMTP_HOST: "y", MAIL_FROM: "a@b.org" })).toThrow(/not both/);
    expect(() => mailConfigFromEnv({ SMTP_HOST: "h", SMTP_PORT: "70000", MAIL_FROM: "a@b.org" })).toThrow(/SMTP_PORT/);
    expect(() => mailConfigFromEnv({ SMTP_HOST: "h", SMTP_TLS: "maybe", MAIL_FROM: "a@b.org" })).toThrow(/SMTP_TLS/);
    expect(() => mailConfigFromEnv({ SMTP_HOST: "h", SMTP_PASSWORD: "p", MAIL_FROM: "a@b.org" })).toThrow(MailConfigError);
  });

  it("never repeats a password from SMTP_URL in its message", () => {
    try {
      mailConfigFromEnv({ SMTP_URL: "smtp://user:s3cret@ho st:25", MAIL_FROM: "a@b.org" });
      expect.unreachable();
    } catch (err) {
      expect((err as Error).message).not.toContain("s3cret");
    }
  });

  it("reads the parts: starttls on 587 by default, TLS from the start with on, credentials only with a user", () => {
    expect(mailConfigFromEnv({ SMTP_HOST: "smtp.example.org", MAIL_FROM: "a@b.org" })).toEqual({
      transport: { host: "smtp.example.org", port: 587, secure: false, ignoreTLS: false },
      from: "a@b.org",
      invitationDays: 7,
    });
    const tls = mailConfigFromEnv({ SMTP_HOST: "h", SMTP_PORT: "465", SMTP_TLS: "on", SMTP_USER: "u", SMTP_PASSWORD: "p", MAIL_FROM: "a@b.org", MAIL_INVITATION_DAYS: "3" })!;
    expect(tls.transport).toEqual({ host: "h", port: 465, secure: true, ignoreTLS: false, auth: { user: "u", pass: "p" } });
    expect(tls.invitationDays).toBe(3);
  });
});

describe("messages", () => {
  it("escape what they quote in HTML", () => {
    const m = renderMail({ kind: "reminder", name: "<b>Ana</b>", title: "A & B", deadline: "2027-01-01", open: 2, today: false }, { app: "http://x" });
    expect(m.html).toContain("&lt;b&gt;Ana&lt;/b&gt;");
    expect(m.html).toContain("A &amp; B");
    expect(m.text).toContain("2 open assignments");
  });

  it("an unsubscribe token is the user's and cannot be altered", () => {
    process.env.AUTH_SECRET ??= "unit-secret-".padEnd(48, "x");
    const t = signUnsubscribe("0b7f5e38-1111-4222-8333-444455556666", "weeklyDigest");
    expect(verifyUnsubscribe(t)).toEqual({ userId: "0b7f5e38-1111-4222-8333-444455556666", setting: "weeklyDigest" });
    const [body, sig] = t.split(".");
    const other = Buffer.from(JSON.stringify({ u: "someone-else", s: "weeklyDigest" })).toString("base64url");
    expect(verifyUnsubscribe(`${other}.${sig}`)).toBeNull();
    expect(verifyUnsubscribe(`${body}.${sig}x`)).toBeNull();
    expect(verifyUnsubscribe(body)).toBeNull();
  });
});
