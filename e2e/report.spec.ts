import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { demo, e2eDatabaseUrl, signIn } from "./fixtures";

/**
 * Issue 36, item 3: the lead opens the closed pilot study's Report tab, reads the methods and
 * tables on the page, and downloads the report as PDF and as Word from it. axe clean.
 */
test("a lead reads the study report and downloads it as PDF and Word", async ({ page }) => {
  test.setTimeout(120_000);
  const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await db.connect();
  const study = (await db.query<{ id: string }>(`SELECT id FROM "Study" WHERE slug = 'demo-pilot-graded'`)).rows[0].id;
  await db.end();
  await signIn(page, demo.lead);
  await page.goto(`/studies/${study}`);
  await page.getByRole("navigation", { name: "Study sections" }).getByRole("link", { name: "Report" }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${study}/report`));
  const report = page.getByRole("article", { name: "Study report" });
  await expect(report.getByRole("heading", { name: "Methods" })).toBeVisible({ timeout: 30_000 });
  await expect(report).toContainText("Grading was blinded");
  await expect(report.getByRole("table", { name: /Study flow/ })).toContainText("Response sets");
  await expect(report.getByRole("heading", { name: "Reproducibility appendix" })).toBeVisible();

  const [pdf] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download PDF" }).click()]);
  expect(pdf.suggestedFilename()).toMatch(/-report\.pdf$/);
  const pdfBytes = await (await pdf.createReadStream()).toArray();
  expect(Buffer.concat(pdfBytes).subarray(0, 5).toString()).toBe("%PDF-");
  const [docx] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download Word (.docx)" }).click()]);
  expect(docx.suggestedFilename()).toMatch(/-report\.docx$/);
  const docxBytes = Buffer.concat(await (await docx.createReadStream()).toArray());
  // A DOCX is a zip: it starts with the local file header's signature.
  expect(docxBytes.subarray(0, 2).toString()).toBe("PK");

  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
});
