import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUT as deadlinesRoute } from "@/app/api/v1/studies/[id]/deadlines/route";
import { PUT as mailSettingsRoute } from "@/app/api/v1/me/mail-settings/route";
import { GET as listGradersRoute } from "@/app/api/v1/studies/[id]/graders/route";
import { DELETE as removeGraderRoute } from "@/app/api/v1/studies/[id]/graders/[userId]/route";
import { PATCH as updateUserRoute } from "@/app/api/v1/users/[id]/route";
import { POST as unsubscribeRoute } from "@/app/api/v1/unsubscribe/route";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { mailConfigFromEnv } from "@/lib/mail/config";
import { scheduleDueMail } from "@/lib/mail/scheduler";
import { sendDueMail } from "@/lib/mail/sender";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { restoreEnv, startSmtpCatcher } from "./helpers/smtp-catcher";
import { makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
let f: Awaited<ReturnType<typeof makeGradableStudy>>;
const STUDY_NAME = "Zeta-Model-Alpha head to head";

const saved = { SMTP_URL: process.env.SMTP_URL, MAIL_FROM: process.env.MAIL_FROM };

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "Clingrade <grading@test.clingrade.org>";
  f = await makeGradableStudy({ items: 2, models: 2, graders: 3 });
  await getDb().study.update({ where: { id: f.study.id }, data: { name: STUDY_NAME } });
  await assignGraders(f.study.id, {}, f.lead.id);
});
afterAll(async () => {
  restoreEnv(saved);
  await smtp.close();
});

const put = (body: unknown): RequestInit => ({ method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const config = () => mailConfigFromEnv()!;

/** One app instance's mail job: schedule what is due today, then send what the outbox holds. */
async function instance(today: string) {
  await scheduleDueMail(today);
  while ((await sendDueMail(config(), 2)).length > 0);
}

describe("deadlines, reminders and digests", () => {
  it("a reminder is sent once, before and on the deadline, with four instances racing for the job", async () => {
    const [g1, g2] = f.graders;
    const res = await call(deadlinesRoute, "/x", bearer(f.lead.token, put({ deadline: "2027-03-10", reminderDaysBefore: 3, graders: [{ userId: g2.id, deadline: "2027-03-20" }] })), {
      id: f.study.id,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deadline: "2027-03-10", reminderDaysBefore: 3 });

    await Promise.all([instance("2027-03-06"), instance("2027-03-06")]);
    expect(smtp.to(g1.email)).toHaveLength(0); // 4 days before: too early

    await Promise.all([instance("2027-03-07"), instance("2027-03-07"), instance("2027-03-07"), instance("2027-03-07")]);
    await Promise.all([instance("2027-03-08"), instance("2027-03-09")]);
    const before = smtp.to(g1.email);
    expect(before).toHaveLength(1);
    expect(before[0].subject).toContain("due on 2027-03-10");
    expect(smtp.to(g2.email)).toHaveLength(0); // their own deadline is later

    await Promise.all([instance("2027-03-10"), instance("2027-03-10")]);
    const all = smtp.to(g1.email);
    expect(all).toHaveLength(2);
    expect(all[1].subject).toMatch(/^Due today/);
    const rows = await getDb().mailMessage.count({ where: { toEmail: g1.email, kind: "reminder", status: "SENT" } });
    expect(rows).toBe(2);
  });

  it("the lead's daily digest comes once a day and names graders past their deadline", async () => {
    await Promise.all([instance("2027-03-11"), instance("2027-03-11")]);
    const digests = smtp.to(f.lead.email).filter((m) => m.subject.startsWith("Daily summary"));
    // The job ran on six days (6 to 11 March), by up to four instances a day: one digest a day.
    expect(digests).toHaveLength(6);
    const days = (await getDb().mailMessage.findMany({ where: { toEmail: f.lead.email, kind: "lead-digest" }, select: { dedupeKey: true } })).map((m) => m.dedupeKey!.slice(-10));
    expect(days.sort()).toEqual(["2027-03-06", "2027-03-07", "2027-03-08", "2027-03-09", "2027-03-10", "2027-03-11"]);
    const assigned = await getDb().assignment.count({ where: { studyId: f.study.id, status: { not: "CANCELLED" } } });
    expect(assigned).toBeGreaterThan(0);
    // The 11th's: the study's deadline (the 10th) has passed for grader1 and grader3; grader2's own deadline (the 20th) has not.
    const last = digests.at(-1)!;
    expect(last.text).toContain(`0 of ${assigned} assignments submitted.`);
    const [g1, g2, g3] = f.graders;
    expect(last.text).toContain(`Past their deadline with open work: ${[g1.name, g3.name].sort().join(", ")}.`);
    expect(last.text).not.toContain(g2.name);
    expect(digests.filter((m) => m.text.includes("No grader is past their deadline."))).toHaveLength(5);
  });

  it("the weekly digest is opt-in, once a week, and its unsubscribe link turns off that setting only", async () => {
    const g = f.graders[2];
    const on = await call(mailSettingsRoute, "/x", bearer(g.token, put({ weeklyDigest: true })));
    expect(on.body).toEqual({ weeklyDigest: true });
    await Promise.all([instance("2027-03-15"), instance("2027-03-16")]); // the same ISO week
    const digests = smtp.to(g.email).filter((m) => m.subject === "Your grading this week");
    expect(digests).toHaveLength(1);
    const link = /\/unsubscribe#([A-Za-z0-9_.-]+)/.exec(digests[0].text)!;
    expect(link).toBeTruthy();

    const before = await getDb().user.findUniqueOrThrow({ where: { id: g.id } });
    const res = await call(unsubscribeRoute, "/api/v1/unsubscribe", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: link[1] }) });
    expect(res.status).toBe(200);
    const after = await getDb().user.findUniqueOrThrow({ where: { id: g.id } });
    expect(after.weeklyDigest).toBe(false);
    const { weeklyDigest: _a, updatedAt: _b, ...rest } = after;
    const { weeklyDigest: _c, updatedAt: _d, ...restBefore } = before;
    expect(rest).toEqual(restBefore);
    expect(await getDb().authSession.count({ where: { userId: g.id } })).toBe(0); // no sign-in came of it

    // A forged or altered token changes nothing.
    const forged = link[1].replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    const bad = await call(unsubscribeRoute, "/api/v1/unsubscribe", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: forged }) });
    expect(bad.status).toBe(404);
  });

  it("a grader's own deadline, set and cleared by the lead, is the one their reminders count down to", async () => {
    const [, g2] = f.graders;
    const grader2 = () => getDb().studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: f.study.id, userId: g2.id } } });
    await Promise.all([instance("2027-03-17"), instance("2027-03-17")]); // 3 days before the 20th
    const reminders = smtp.to(g2.email);
    expect(reminders).toHaveLength(1);
    expect(reminders[0].subject).toMatch(/^Reminder: .+ is due on 2027-03-20$/);

    // Refused as a whole: the study's deadline is not changed either when one grader is not the study's.
    const stranger = await makeUser("GRADER");
    const bad = await call(deadlinesRoute, "/x", bearer(f.lead.token, put({ deadline: "2027-04-01", graders: [{ userId: g2.id, deadline: null }, { userId: stranger.id, deadline: "2027-04-02" }] })), { id: f.study.id });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain(`${stranger.id} is not a grader of this study`);
    const twice = await call(deadlinesRoute, "/x", bearer(f.lead.token, put({ graders: [{ userId: g2.id, deadline: null }, { userId: g2.id, deadline: "2027-04-02" }] })), { id: f.study.id });
    expect(twice.status).toBe(422);
    expect((await getDb().study.findUniqueOrThrow({ where: { id: f.study.id } })).deadline?.toISOString().slice(0, 10)).toBe("2027-03-10");
    expect((await grader2()).deadline?.toISOString().slice(0, 10)).toBe("2027-03-20");

    // A later own deadline (the study's is left out, so it stays): a reminder for it.
    const moved = await call(deadlinesRoute, "/x", bearer(f.lead.token, put({ graders: [{ userId: g2.id, deadline: "2027-03-24" }] })), { id: f.study.id });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({ deadline: "2027-03-10", reminderDaysBefore: 3, graders: [{ userId: g2.id, deadline: "2027-03-24" }] });
    const listed = await call(listGradersRoute, "/x", bearer(f.lead.token), { id: f.study.id });
    expect((listed.body.graders as { userId: string; deadline: string | null }[]).find((g) => g.userId === g2.id)?.deadline).toBe("2027-03-24");
    await instance("2027-03-21");
    expect(smtp.to(g2.email).map((m) => m.subject.slice(-10))).toEqual(["2027-03-20", "2027-03-24"]);

    // Cleared: the study's deadline (past) applies again, and no reminder comes on the 24th.
    const cleared = await call(deadlinesRoute, "/x", bearer(f.lead.token, put({ graders: [{ userId: g2.id, deadline: null }] })), { id: f.study.id });
    expect(cleared.status).toBe(200);
    expect((await grader2()).deadline).toBeNull();
    await instance("2027-03-24");
    expect(smtp.to(g2.email)).toHaveLength(2);
  });

  it("a grader removed, or deactivated, with open work: the response says how much, and the lead is e-mailed", async () => {
    const [g1, g2] = f.graders;
    const open = await getDb().assignment.count({ where: { studyId: f.study.id, graderId: g1.id, status: { in: ["PENDING", "IN_PROGRESS"] } } });
    expect(open).toBeGreaterThan(0);
    const res = await call(removeGraderRoute, "/x", bearer(f.lead.token, { method: "DELETE" }), { id: f.study.id, userId: g1.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ changed: true, openAssignments: open, openAdjudications: 0 });
    const admin = await makeUser("ADMIN");
    const off = await call(updateUserRoute, "/x", bearer(admin.token, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ active: false }) }), { id: g2.id });
    expect(off.status).toBe(200);
    while ((await sendDueMail(config())).length > 0);
    const told = smtp.to(f.lead.email).filter((m) => m.subject.startsWith("A grader left"));
    expect(told).toHaveLength(2);
    const removed = told.find((m) => m.text.includes(`${g1.name} was removed from`))!;
    expect(removed.text).toContain(`${open} open assignment`);
    expect(removed.text).toContain(`/studies/${f.study.id}/assignments`);
    expect(told.some((m) => m.text.includes(`${g2.name} was deactivated`))).toBe(true);
  });

  it("no message names the study or a model", async () => {
    expect(smtp.messages.length).toBeGreaterThan(3);
    for (const m of smtp.messages) {
      for (const secret of [STUDY_NAME, ...f.models.flatMap((x) => [x.name, x.version])]) expect(`${m.subject}\n${m.text}\n${m.html}`).not.toContain(secret);
    }
  });
});
