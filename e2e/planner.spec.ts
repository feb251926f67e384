import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { demo, signIn } from "./fixtures";
import { iccSets } from "../lib/stats/planner";
import { fleissKappaSets } from "../lib/stats/planner-kappa";

/**
 * Issue 36, item 1: from the new-study page the lead opens the planner, asks for the sets an ICC
 * interval needs and sees the number with its method and assumptions, then the D-study of the
 * demo's graded pilot study: variance components and the table of graders per set. Kappa with four
 * graders and three categories (Fleiss' kappa), shares that do not add up named at their field.
 * axe clean.
 */
test("a lead plans a study's size and reads a D-study of the pilot", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, demo.lead);
  await page.goto("/studies/new");
  await page.getByRole("link", { name: "How many sets and graders do you need? Plan the study" }).click();
  await expect(page).toHaveURL(/\/planner$/);
  await expect(page.getByRole("heading", { name: "Study planner" })).toBeVisible();

  await page.getByLabel("Expected ICC").fill("0.75");
  await page.getByLabel("Graders per set").fill("3");
  await page.getByLabel("Width of the 95% interval").fill("0.2");
  await page.getByRole("button", { name: "Plan" }).click();
  const expected = iccSets(0.75, 3, 0.2);
  if ("problem" in expected) throw new Error(expected.problem);
  await expect(page.getByTestId("planner-sets")).toHaveText(`${expected.sets} sets`);
  await expect(page.getByRole("region", { name: "Planner answer" })).toContainText("Bonett (2002)");
  await expect(page.getByRole("region", { name: "Planner answer" })).toContainText("3 graders per set, an expected ICC of 0.75");

  // A refused value is named at its field.
  await page.getByLabel("Graders per set").fill("1");
  await page.getByRole("button", { name: "Plan" }).click();
  await expect(page.locator("#planner-error")).toContainText("Some fields need attention");
  await expect(page.locator("#planner-graders-error")).toBeVisible();

  // Kappa with more than two graders and three categories: Fleiss' kappa.
  await page.getByLabel("What do you want to estimate or detect?").selectOption("kappa");
  await page.getByLabel("Expected kappa").fill("0.5");
  await page.getByLabel("Graders per set").fill("4");
  await page.getByLabel("Share of each category").fill("0.2, 0.5, 0.3");
  await page.getByLabel("Width of the 95% interval").fill("0.2");
  await page.getByRole("button", { name: "Plan" }).click();
  const fleiss = fleissKappaSets(0.5, [0.2, 0.5, 0.3], 4, 0.2);
  if ("problem" in fleiss) throw new Error(fleiss.problem);
  await expect(page.getByTestId("planner-sets")).toHaveText(`${fleiss.sets} sets`);
  await expect(page.getByRole("region", { name: "Planner answer" })).toContainText("Fleiss' kappa");
  await expect(page.getByRole("region", { name: "Planner answer" })).toContainText("4 graders per set, 3 categories");
  // Shares that do not add up to 1 are named at their field.
  await page.getByLabel("Share of each category").fill("0.2, 0.5");
  await page.getByRole("button", { name: "Plan" }).click();
  await expect(page.locator("#planner-proportions-error")).toContainText("add up to 1");

  await page.getByLabel("What do you want to estimate or detect?").selectOption("dstudy");
  await page.getByLabel("Pilot study").selectOption({ label: "Pilot (closed): the same 15 questions, graded" });
  await page.getByRole("button", { name: "Plan" }).click();
  const table = page.getByTestId("planner-dstudy");
  await expect(table).toBeVisible({ timeout: 20_000 });
  await expect(table.getByRole("row")).toHaveCount(7);
  await expect(page.getByRole("table", { name: /Variance components/ })).toContainText("p:q");

  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
});
