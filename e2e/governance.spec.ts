import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { demo, e2eDatabaseUrl, signIn } from "./fixtures";

/**
 * Issue 33, stages 3-4: the lead triages the closed pilot's final sets (N = 3)
 * on the Governance tab, decides a set with a note, changes the rule and
 * returns to the defaults; the decision is in the audit trail. axe clean.
 */
test("a lead triages the pilot's sets, decides one with a note, and sets the rule", async ({ page }) => {
  test.setTimeout(120_000);
  const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await db.connect();
  const pilot = (await db.query<{ id: string }>(`SELECT id FROM "Study" WHERE slug = 'demo-pilot-graded'`)).rows[0].id;
  const finals = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM "ResponseSet" WHERE "studyId" = $1 AND status IN ('AGREED', 'ADJUDICATED')`, [pilot])).rows[0].n);

  await signIn(page, demo.lead);
  await page.goto(`/studies/${pilot}`);
  await page.getByRole("navigation", { name: "Study sections" }).getByRole("link", { name: "Governance" }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${pilot}/governance`));
  await expect(page.getByText("The default rule: accept at most 25% of the scale, review up to 50%, reject above.")).toBeVisible();

  const queue = page.getByRole("table", { name: "Triage queue" });
  await expect(queue.getByRole("row")).toHaveCount(finals + 1);
  const counts = page.getByRole("table", { name: "Triage per model and specialty" });
  const cells = await counts.getByRole("row").evaluateAll((rows) => rows.slice(1).map((r) => [...r.querySelectorAll("td")].map((td) => Number(td.textContent)).slice(2, 6)));
  expect(cells.flat().reduce((a, b) => a + b, 0)).toBe(finals);

  // The first set waiting for a decision: rejected, with a note.
  await page.getByRole("link", { name: "Not decided" }).click();
  await expect(page).toHaveURL(/verdict=undecided/);
  const first = queue.getByRole("row").nth(1);
  const item = (await first.getByRole("cell").first().innerText()).trim();
  const model = (await first.getByRole("cell").nth(2).innerText()).trim();
  await first.getByLabel(`Decision on ${item}, ${model}`).selectOption("REJECTED");
  await first.getByRole("button", { name: "Save decision" }).click();
  await expect(first.getByRole("alert")).toContainText("a note of at least 3 characters is required");
  await first.getByLabel(`Note on ${item}, ${model}`).fill("Answers 2 and 3 disagree on the dose");
  await first.getByRole("button", { name: "Save decision" }).click();
  await expect(queue.getByRole("row")).toHaveCount(finals); // one fewer undecided
  await page.getByRole("link", { name: "All", exact: true }).click();
  await expect(page.getByText("Rejected: Answers 2 and 3 disagree on the dose")).toBeVisible();

  // The study's own rule, then back to the defaults.
  await page.getByLabel("Accept when drift is at most").fill("0.5");
  await page.getByLabel("Reject when drift is above").fill("0.25");
  await page.getByRole("button", { name: "Save rule" }).click();
  const ruleForm = page.locator("form").filter({ has: page.getByRole("button", { name: "Save rule" }) });
  await expect(ruleForm.getByRole("alert")).toContainText("reviewAtMost cannot be below acceptAtMost");
  await page.getByLabel("Reject when drift is above").fill("0.75");
  await page.getByRole("button", { name: "Save rule" }).click();
  await expect(page.getByText("This study's rule: accept at most 50% of the scale, review up to 75%, reject above.")).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  await page.getByRole("button", { name: "Back to the defaults" }).click();
  await expect(page.getByText("The default rule: accept at most 25% of the scale")).toBeVisible();

  const audit = await db.query<{ action: string }>(`SELECT action FROM "AuditEvent" WHERE "studyId" = $1 AND action IN ('set.triage_decision', 'study.triage_rule') ORDER BY id`, [pilot]);
  expect(audit.rows.map((r) => r.action)).toEqual(["set.triage_decision", "study.triage_rule", "study.triage_rule"]);
  await db.end();
});
