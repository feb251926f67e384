import { expect, test } from "@playwright/test";
import pg from "pg";
import { PILOT_GRADERS } from "../lib/demo/seed";
import { demo, e2eDatabaseUrl, signIn } from "./fixtures";

async function studyIdOf(slug: string): Promise<string> {
  const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await db.connect();
  const id = (await db.query<{ id: string }>(`SELECT id FROM "Study" WHERE slug = $1`, [slug])).rows[0].id;
  await db.end();
  return id;
}

test("a lead adds many graders at once: every bad line named and nothing added, then all that can be, the rest listed apart", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  const studyId = await studyIdOf("demo-clinical-qa");
  await signIn(page, demo.lead);
  await page.goto(`/studies/${studyId}/graders`);
  const form = page.getByRole("form", { name: "Add many graders" });
  const lines = form.getByLabel("Graders, one per line");
  await lines.fill(
    [`email,name,specialties`, `new-${stamp}@demo.clingrade.org,Dr. Bulk One,Cardiology;Medication`, `nobody-${stamp}@demo.clingrade.org`, demo.graders[0].email, "not an email"].join("\n"),
  );
  await form.getByRole("button", { name: "Add all graders" }).click();
  const alert = form.getByRole("alert");
  await expect(alert).toContainText("2 lines need attention; no grader was added");
  // An email with no account is not singled out: that would tell which emails have accounts.
  await expect(alert).not.toContainText(`nobody-${stamp}`);
  await expect(alert).toContainText(`line 4 (${demo.graders[0].email}): already a grader of this study`);
  await expect(alert).toContainText("line 5 (not an email): email is not a valid address");
  await page.getByLabel("Search graders").fill(`new-${stamp}`);
  await expect(page.getByRole("table", { name: "Graders" }).getByText("No graders match.")).toBeVisible(); // nothing half-written

  // Fixed: the new one with a name, the bad lines gone, and an existing grader (of the pilot) picked from the list;
  // the nameless unknown email stays, and is listed apart, with the one message for any email that cannot be added.
  await lines.fill([`new-${stamp}@demo.clingrade.org,Dr. Bulk One,Cardiology;Medication`, `nobody-${stamp}@demo.clingrade.org`, `new2-${stamp}@demo.clingrade.org,Dr. Bulk Two`].join("\n"));
  await form.getByLabel("Filter graders").fill(PILOT_GRADERS[0].email);
  await form.getByRole("checkbox", { name: new RegExp(PILOT_GRADERS[0].email) }).check();
  await form.getByRole("button", { name: "Add 1 picked to the list" }).click();
  await expect(lines).toHaveValue(new RegExp(`${PILOT_GRADERS[0].email}\\n$`));
  await form.getByRole("button", { name: "Add all graders" }).click();
  const status = form.getByRole("status");
  await expect(status).toContainText("Added 3 graders.");
  await expect(status).toContainText(`new-${stamp}@demo.clingrade.org: new account (Cardiology, Medication)`);
  await expect(status).toContainText(`${PILOT_GRADERS[0].email}: joined`);
  await expect(status).toContainText("Not added (1): no grader account with this email can be added");
  await expect(status).toContainText(`line 2: nobody-${stamp}@demo.clingrade.org`);
  await expect(lines).toHaveValue(`nobody-${stamp}@demo.clingrade.org`);
  await expect(form.getByTestId("bulk-password")).toHaveCount(2);
  const password = await form.getByTestId("bulk-password").first().innerText();
  await page.screenshot({ path: test.info().outputPath("bulk-added.png"), fullPage: true });

  await page.getByLabel("Search graders").fill(String(stamp));
  await expect(page.getByRole("table", { name: "Graders" }).getByRole("row")).toHaveCount(3);
  // The new grader signs in with the password shown once.
  const other = await browser.newContext();
  const p2 = await other.newPage();
  await signIn(p2, { email: `new-${stamp}@demo.clingrade.org`, password });
  await expect(p2).toHaveURL(/\/queue$/);
  await other.close();
});

test("the assignments tab draws a 0% bar empty, not full grey", async ({ page }) => {
  const studyId = await studyIdOf("demo-clinical-qa");
  // A grader of the demo study with work and nothing submitted (other specs may have graded some).
  const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await db.connect();
  const idle = (
    await db.query<{ name: string }>(
      `SELECT u.name FROM "Assignment" a JOIN "User" u ON u.id = a."graderId" WHERE a."studyId" = $1 AND a.status <> 'CANCELLED'
       GROUP BY u.name HAVING count(*) FILTER (WHERE a.status = 'SUBMITTED') = 0 ORDER BY u.name LIMIT 1`,
      [studyId],
    )
  ).rows[0];
  await db.end();
  expect(idle, "a demo grader with nothing submitted").toBeTruthy();
  await signIn(page, demo.lead);
  await page.goto(`/studies/${studyId}/assignments`);
  const bar = page.getByRole("progressbar", { name: `${idle.name}: submitted` });
  await expect(bar).toHaveAttribute("aria-valuenow", "0");
  const fill = await bar.evaluate((el) => ({ track: el.getBoundingClientRect().width, fill: (el.firstElementChild as HTMLElement).getBoundingClientRect().width }));
  expect(fill.track).toBeGreaterThan(50);
  expect(fill.fill).toBe(0);
  await expect(page.getByRole("row", { name: new RegExp(idle.name) })).toContainText("0%");
});

test("an admin edits, resets and deactivates a user; the password rule is text by the field; the audit reads as names", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  await signIn(page, demo.admin);
  await page.goto("/admin/users");
  await expect(page.getByText("At least 10 characters.")).toBeVisible();
  await page.getByLabel("Name").fill("Dr. Edit Me");
  await page.getByLabel("Email").fill(`edit-${stamp}@demo.clingrade.org`);
  await page.getByLabel("Role").selectOption("GRADER");
  await page.getByLabel("Initial password").fill("short");
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByText("password must have at least 10 characters").first()).toBeVisible();
  await page.getByLabel("Initial password").fill("first-password-123");
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByRole("status")).toContainText(`Created edit-${stamp}@demo.clingrade.org`);

  // A session of that user, to see it end.
  const theirs = await browser.newContext();
  const p2 = await theirs.newPage();
  await signIn(p2, { email: `edit-${stamp}@demo.clingrade.org`, password: "first-password-123" });

  await page.getByRole("button", { name: `Edit edit-${stamp}@demo.clingrade.org` }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("Dr. Edited");
  await dialog.getByLabel("New password (leave empty to keep it)").fill("second-password-456");
  await expect(dialog.getByText("At least 10 characters. The user's sessions end.")).toBeVisible();
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("row", { name: new RegExp(`edit-${stamp}`) })).toContainText("Dr. Edited");
  await p2.goto("/queue");
  await expect(p2).toHaveURL(/\/login/); // the reset ended their session
  await signIn(p2, { email: `edit-${stamp}@demo.clingrade.org`, password: "second-password-456" });

  // Deactivate: their session ends at once.
  page.once("dialog", (d) => void d.accept());
  await page.getByRole("button", { name: `Edit edit-${stamp}@demo.clingrade.org` }).click();
  await page.getByRole("dialog").getByLabel("Active").uncheck();
  await page.getByRole("dialog").getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("row", { name: new RegExp(`edit-${stamp}`) })).toContainText("deactivated");
  await p2.goto("/queue");
  await expect(p2).toHaveURL(/\/login/);
  await theirs.close();

  // The admin's own account: no deactivation, no role change.
  await page.getByRole("button", { name: `Edit ${demo.admin.email}` }).click();
  await expect(page.getByRole("dialog").getByLabel("Active")).toBeDisabled();
  await expect(page.getByRole("dialog").getByLabel("Role")).toBeDisabled();
  await page.keyboard.press("Escape");

  // The pilot's audit log: names and before -> after, no raw JSON or ids.
  const pilot = await studyIdOf("demo-pilot-graded");
  await page.goto(`/studies/${pilot}/audit`);
  const audit = page.getByRole("table", { name: "Audit log" });
  await expect(audit.getByRole("row").nth(1)).toBeVisible();
  const text = await audit.innerText();
  expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}/);
  expect(text).not.toContain('{"');
  await expect(audit).toContainText("→");
  await page.screenshot({ path: test.info().outputPath("audit.png"), fullPage: false });
});
