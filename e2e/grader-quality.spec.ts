import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { demo, e2eDatabaseUrl, signIn } from "./fixtures";

/**
 * Issue 35, items 4-5: the lead reads the Graders' quality page of the closed pilot, excludes a
 * grader with a reason, sees the dashboard's alpha change and the sensitivity analysis, then
 * brings the grader back. axe clean.
 */
test("a lead reads the graders' quality, excludes a grader and sees the figures change", async ({ page }) => {
  test.setTimeout(180_000);
  const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await db.connect();
  const pilot = (await db.query<{ id: string }>(`SELECT id FROM "Study" WHERE slug = 'demo-pilot-graded'`)).rows[0].id;
  const alphaTable = page.getByRole("table", { name: "Cronbach's alpha per specialty" });
  try {
    await signIn(page, demo.lead);
    await page.goto(`/studies/${pilot}/dashboard`);
    const alphaBefore = await alphaTable.textContent();

    await page.goto(`/studies/${pilot}`);
    await page.getByRole("navigation", { name: "Study sections" }).getByRole("link", { name: "Grader quality" }).click();
    await expect(page).toHaveURL(new RegExp(`/studies/${pilot}/quality`));
    const table = page.getByRole("table", { name: "Graders' quality signals" });
    await expect(table.getByRole("row")).toHaveCount(5); // four pilot graders and the header
    await expect(page.getByText("not collected in this study.").first()).toBeVisible();
    // Gold, re-grade and calibration figures per grader (none collected in the pilot: dashes, each grader listed).
    await expect(page.getByRole("table", { name: "Gold accuracy, intra-rater reliability and calibration per grader" }).getByRole("row")).toHaveCount(5);
    // Sortable: bias, highest first.
    await table.getByRole("button", { name: "Bias (points, 95% CI)" }).click();
    await expect(table.getByRole("columnheader", { name: /Bias/ })).toHaveAttribute("aria-sort", /descending|ascending/);

    const row = table.getByRole("row").filter({ hasText: "Dr. Ines Duarte" });
    await row.getByRole("button", { name: "Exclude Dr. Ines Duarte from the analysis" }).click();
    await row.getByLabel("Why exclude Dr. Ines Duarte?").fill("Scores outside the calibration range");
    await row.getByRole("button", { name: "Confirm exclusion" }).click();
    await expect(row.getByText("excluded", { exact: true })).toBeVisible();
    await expect(row.getByRole("button", { name: "Include Dr. Ines Duarte in the analysis again" })).toBeVisible();

    await page.getByRole("link", { name: "Run the sensitivity analysis" }).click();
    const sens = page.getByRole("table", { name: "Sensitivity of the headline figures to each grader" });
    await expect(sens).toBeVisible({ timeout: 60_000 });
    await expect(sens.getByRole("columnheader", { name: "With every grader" })).toBeVisible();
    await expect(sens.locator('[data-largest="true"]').first()).toBeVisible();
    const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

    await page.goto(`/studies/${pilot}/dashboard`);
    expect(await alphaTable.textContent()).not.toEqual(alphaBefore);

    await page.goto(`/studies/${pilot}/quality`);
    await table.getByRole("row").filter({ hasText: "Dr. Ines Duarte" }).getByRole("button", { name: "Include Dr. Ines Duarte in the analysis again" }).click();
    await expect(table.getByRole("row").filter({ hasText: "Dr. Ines Duarte" }).getByRole("button", { name: "Exclude Dr. Ines Duarte from the analysis" })).toBeVisible();
    await page.goto(`/studies/${pilot}/dashboard`);
    expect(await alphaTable.textContent()).toEqual(alphaBefore);

    const audit = await db.query<{ action: string }>(`SELECT action FROM "AuditEvent" WHERE "studyId" = $1 AND action LIKE 'study.grader.%clude' ORDER BY id`, [pilot]);
    expect(audit.rows.map((r) => r.action)).toEqual(["study.grader.exclude", "study.grader.include"]);
  } finally {
    // The other specs read the pilot's figures: leave no exclusion behind whatever happened.
    await db.query(`UPDATE "StudyMember" SET "excludedAt" = NULL, "excludedById" = NULL, "excludedReason" = NULL WHERE "studyId" = $1`, [pilot]);
    await db.end();
  }
});
