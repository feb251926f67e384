import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { simpleParser } from "mailparser";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { startServer, withDatabase } from "../bench/lib/server";
import { form, GOOD_SAFE } from "../tests/fixtures/grade-form";
import { demo, e2eDatabaseUrl, gradingFormShown, signIn } from "./fixtures";

/**
 * Issue 37: graders join by invitation. A production server of its own (on a
 * database of its own, seeded with the demo) sends its mail to a real SMTP
 * server in this test's process. The lead invites two graders; the first
 * follows the link in the captured e-mail, chooses a password, signs in and
 * grades; the lead sees one invitation "accepted" and the other "sent". No
 * message names the study or a model; the pages are axe clean.
 */
test.describe.configure({ mode: "serial" });

const PORT = Number(process.env.E2E_PORT ?? "3100") + 61;
const SMTP_PORT = PORT + 1;
const BASE = `http://127.0.0.1:${PORT}`;
test.use({ baseURL: BASE });

const mails: { to: string; subject: string; text: string; html: string }[] = [];
let smtp: SMTPServer;
let server: { stop: () => Promise<void> } | null = null;
let dbUrl = "";

test.beforeAll(async () => {
  test.setTimeout(240_000);
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (m) => {
          const to = Array.isArray(m.to) ? m.to[0] : m.to;
          mails.push({ to: to?.value[0]?.address ?? "", subject: m.subject ?? "", text: m.text ?? "", html: typeof m.html === "string" ? m.html : "" });
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => smtp.listen(SMTP_PORT, "127.0.0.1", () => resolve()));
  const name = `clingrade_mail_${PORT}`;
  const adminUrl = withDatabase(e2eDatabaseUrl(), "postgres");
  dbUrl = withDatabase(e2eDatabaseUrl(), name);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  server = await startServer(
    dbUrl,
    PORT,
    { NEXTAUTH_URL: BASE, SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`, MAIL_FROM: "Clingrade <grading@hospital.example>", MAIL_POLL_MS: "300", DATABASE_POOL_SIZE: "5" },
    { args: ["--seed-demo"] },
  );
});

test.afterAll(async () => {
  await server?.stop();
  await new Promise<void>((r) => smtp.close(() => r()));
});

async function axeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes[0]?.html}`)).toEqual([]);
}

async function mailTo(email: string) {
  await expect.poll(() => mails.filter((m) => m.to === email).length, { timeout: 20_000 }).toBeGreaterThan(0);
  return mails.filter((m) => m.to === email).at(-1)!;
}

test("a lead invites two graders; the first accepts from the e-mailed link and grades", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  const study = (await db.query<{ id: string; name: string }>(`SELECT id, name FROM "Study" WHERE slug = 'demo-clinical-qa'`)).rows[0];
  const models = (await db.query<{ name: string }>(`SELECT name FROM "LlmModel" WHERE "studyId" = $1`, [study.id])).rows.map((r) => r.name);
  const stamp = Date.now();
  const first = { email: `invited-a-${stamp}@hospital.example`, name: "Dr. Ada Invited" };
  const second = { email: `invited-b-${stamp}@hospital.example`, name: "Dr. Ben Invited" };

  await signIn(page, demo.lead);
  await page.goto(`/studies/${study.id}/graders`);
  await expect(page.getByTestId("mail-off")).toHaveCount(0);
  for (const g of [first, second]) {
    await page.getByLabel("Email", { exact: true }).fill(g.email);
    await page.getByLabel("Name", { exact: true }).fill(g.name);
    await page.getByRole("button", { name: "Add grader" }).click();
    await expect(page.getByTestId("invitation-sent")).toContainText(g.email);
    // No password is shown to the lead.
    await expect(page.getByTestId("initial-password")).toHaveCount(0);
  }
  const mail = await mailTo(first.email);
  await mailTo(second.email);
  for (const m of mails) for (const secret of [study.name, ...models]) expect(`${m.subject}\n${m.text}\n${m.html}`).not.toContain(secret);
  const link = /(http:\/\/\S+\/invitation#[A-Za-z0-9_-]{43})/.exec(mail.text)![1];

  // Some of the study's open work goes to the first grader, as an assignment run would.
  const moved = await db.query(
    `UPDATE "Assignment" SET "graderId" = (SELECT id FROM "User" WHERE email = $1)
     WHERE id = (SELECT id FROM "Assignment" WHERE "studyId" = $2 AND status = 'PENDING' AND kind = 'PRIMARY' ORDER BY id LIMIT 1)`,
    [first.email, study.id],
  );
  expect(moved.rowCount).toBe(1);
  await db.query(`INSERT INTO "StudyMember" ("studyId", "userId", role) SELECT $1, id, 'GRADER' FROM "User" WHERE email = $2 ON CONFLICT DO NOTHING`, [study.id, first.email]);

  const context = await browser.newContext();
  const gp = await context.newPage();
  await gp.goto(link);
  await expect(gp.getByRole("form", { name: "Choose your password" })).toBeVisible();
  // The token leaves the address bar once read.
  expect(gp.url()).not.toContain("#");
  await axeClean(gp);
  await gp.getByLabel("New password").fill("my-own-long-password");
  await gp.getByLabel("The same password again").fill("my-own-long-password");
  await gp.getByRole("button", { name: "Set my password" }).click();
  await expect(gp.getByText("Your password is set.")).toBeVisible();

  // The link works once.
  const again = await context.newPage();
  await again.goto(link);
  await expect(again.getByText("this invitation link cannot be used")).toBeVisible();
  await again.close();

  await signIn(gp, { email: first.email, password: "my-own-long-password" });
  await expect(gp).toHaveURL(/\/queue$/);
  await gp.getByTestId("queue-next").click();
  await gradingFormShown(gp);
  const id = gp.url().split("/").at(-1)!;
  const put = await gp.request.put(`/api/v1/assignments/${id}/grades`, { data: { scores: form({ score: [4, 4, 5, 4, 4], safe: GOOD_SAFE }), submit: true } });
  expect(put.status(), await put.text()).toBe(200);
  await context.close();

  await page.reload();
  const rows = page.getByTestId("invitations");
  await expect(rows.locator(`tr[data-email="${first.email}"]`).getByTestId("invitation-state")).toHaveText("accepted");
  await expect(rows.locator(`tr[data-email="${second.email}"]`).getByTestId("invitation-state")).toHaveText("sent");
  await axeClean(page);
  await page.screenshot({ path: test.info().outputPath("invitations.png"), fullPage: true });
  await db.end();
});

test("the lead previews each message and sets a grader's own deadline", async ({ page }) => {
  test.setTimeout(240_000);
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  const study = (await db.query<{ id: string; name: string; graderTitle: string }>(`SELECT id, name, "graderTitle" FROM "Study" WHERE slug = 'demo-clinical-qa'`)).rows[0];
  const models = (await db.query<{ name: string }>(`SELECT name FROM "LlmModel" WHERE "studyId" = $1`, [study.id])).rows.map((r) => r.name);
  const grader = (
    await db.query<{ id: string; name: string }>(
      `SELECT u.id, u.name FROM "StudyMember" m JOIN "User" u ON u.id = m."userId" WHERE m."studyId" = $1 AND m.role = 'GRADER' AND m.active ORDER BY lower(u.name), u.id LIMIT 1`,
      [study.id],
    )
  ).rows[0];

  await signIn(page, demo.lead);
  await page.goto(`/studies/${study.id}/graders`);
  await page.getByRole("button", { name: "Preview the messages" }).click();
  const preview = page.getByTestId("mail-preview");
  await expect(preview.getByTestId("mail-preview-text")).toContainText("Hello Dr. Sample Grader");
  await preview.getByRole("combobox", { name: /^Message/ }).selectOption({ label: "Lead's daily digest" });
  await expect(preview.getByTestId("mail-preview-subject")).toHaveText(/^Daily summary: /);
  await expect(preview.getByTestId("mail-preview-text")).toContainText("140 of 200 assignments submitted");
  for (const secret of [study.name, ...models]) await expect(preview).not.toContainText(secret);
  await axeClean(page);
  // The HTML version in its sandboxed frame (no scripts run there, so axe, which needs them, checks the page around it above).
  await preview.getByRole("button", { name: "HTML" }).click();
  await expect(page.frameLocator('iframe[title="Lead\'s daily digest, HTML version"]').getByText("Hello Dr. Sample Lead,")).toBeVisible();
  await preview.getByRole("button", { name: "Plain text" }).click();

  // The grader's own deadline, set and cleared from the graders' table.
  await page.getByRole("button", { name: `Edit ${grader.name}'s own deadline` }).click();
  await page.getByLabel(`${grader.name}'s own deadline`, { exact: true }).fill("2031-05-20");
  await page.getByRole("form", { name: `${grader.name}'s own deadline in this study` }).getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("button", { name: `Clear ${grader.name}'s own deadline` })).toBeVisible();
  const own = () => db.query<{ day: string | null }>(`SELECT to_char(deadline, 'YYYY-MM-DD') AS day FROM "StudyMember" WHERE "studyId" = $1 AND "userId" = $2`, [study.id, grader.id]);
  expect((await own()).rows[0].day).toBe("2031-05-20");
  await page.getByRole("button", { name: `Clear ${grader.name}'s own deadline` }).click();
  await expect(page.getByRole("button", { name: `Clear ${grader.name}'s own deadline` })).toHaveCount(0);
  expect((await own()).rows[0].day).toBeNull();
  await db.end();
});
