import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { demo, e2eDatabaseUrl, gradingFormShown, signIn } from "./fixtures";

/**
 * Issue 33, stage 1: the lead screens the open demo study's answers on the
 * Screening tab (a refused rule named in the message, a dry run, then the run
 * in warn mode, in the production build's worker thread); a grader whose set
 * holds a screened answer sees the neutral warning, never the rule. axe clean.
 */
test("a lead screens the answers and a grader sees only the neutral warning", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await db.connect();
  const study = (await db.query<{ id: string }>(`SELECT id FROM "Study" WHERE slug = 'demo-clinical-qa'`)).rows[0].id;

  await signIn(page, demo.lead);
  await page.goto(`/studies/${study}`);
  await page.getByRole("navigation", { name: "Study sections" }).getByRole("link", { name: "Screening" }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${study}/screening`));
  await expect(page.getByText("The study's answers have not been screened yet.")).toBeVisible();

  await page.getByLabel("Reason (rule name)").fill("Acute-glaucoma screen");
  await page.getByLabel("Kind").selectOption("regex");
  await page.getByLabel("Pattern (RE2 syntax)").fill("glaucoma(?= )");
  await page.getByRole("button", { name: "Dry run" }).click();
  const problems = page.getByRole("form", { name: "Screening rules" }).getByRole("alert");
  await expect(problems).toContainText("Some rules cannot be run");
  await expect(problems).toContainText('rule "Acute-glaucoma screen": not a valid regular expression');

  await page.getByLabel("Pattern (RE2 syntax)").fill("(?i)angle-closure glaucoma");
  await page.getByRole("button", { name: "Dry run" }).click();
  const dry = page.getByTestId("screen-dry-run");
  await expect(dry.getByRole("table", { name: "Screened answers" })).toBeVisible();
  await expect(dry).toContainText("Dry run: nothing was stored.");
  expect((await db.query(`SELECT 1 FROM "ScreenRun" WHERE "studyId" = $1`, [study])).rowCount).toBe(0);

  await page.getByLabel("Keep them for grading; graders see a neutral warning on each (never the rule)").check();
  await page.getByRole("button", { name: "Run the screen" }).click();
  const current = page.getByTestId("screen-results");
  await expect(current.getByRole("table", { name: "Screened answers" })).toBeVisible();
  await expect(current).toContainText("Acute-glaucoma screen");
  await expect(current).toContainText("Run by");
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  const audit = await db.query<{ action: string }>(`SELECT action FROM "AuditEvent" WHERE "studyId" = $1 AND action = 'screen.run'`, [study]);
  expect(audit.rowCount).toBe(1);

  // A grader with a screened answer in one of their sets.
  const mine = await db.query<{ id: string; email: string }>(
    `SELECT a.id, u.email FROM "ScreenHit" h JOIN "Response" r ON r.id = h."responseId" JOIN "Assignment" a ON a."responseSetId" = r."responseSetId"
     JOIN "User" u ON u.id = a."graderId" WHERE a."studyId" = $1 AND a.status <> 'CANCELLED' ORDER BY u.email LIMIT 1`,
    [study],
  );
  expect(mine.rowCount, "the demo's graders hold a screened answer").toBe(1);
  const grader = demo.graders.find((g) => g.email === mine.rows[0].email)!;
  const context = await browser.newContext();
  const gp = await context.newPage();
  await signIn(gp, grader);
  await gp.goto(`/grade/${mine.rows[0].id}`);
  await gradingFormShown(gp);
  await expect(gp.getByTestId("screen-warning").first()).toContainText("This answer was flagged by the study's safety screen: read it with care.");
  // The rule's name (the lead's reason) is nowhere in what the grader receives; the answers' own words ("an eye emergency") are.
  await expect(gp.getByText("Acute-glaucoma screen")).toHaveCount(0);
  expect(await gp.content()).not.toContain("Acute-glaucoma screen");
  await context.close();
  await db.end();
});
