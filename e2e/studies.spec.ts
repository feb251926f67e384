import { expect, test } from "@playwright/test";
import { demo, signIn } from "./fixtures";

test.describe("study setup by a lead", () => {
  test("creates a study, finds it in the list, edits a setting, adds a grader who can sign in with the one-time password", async ({ page, browser }) => {
    const stamp = Date.now();
    const name = `E2E study ${stamp}`;
    await signIn(page, demo.lead);

    // Create
    await page.goto("/studies");
    await page.getByRole("link", { name: "New study" }).click();
    await expect(page.getByRole("heading", { name: "New study" })).toBeVisible();
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Description", { exact: true }).fill("Created by the end-to-end test");
    await page.getByRole("button", { name: "Remove SAFE-LLM" }).click();
    await expect(page.getByRole("list", { name: "Chosen rubrics" }).getByRole("listitem")).toHaveCount(1);
    await page.getByRole("group", { name: "Safety", exact: true }).getByLabel("Spread (points)").fill("1");
    await page.getByRole("button", { name: "Create study" }).click();
    await expect(page).toHaveURL(/\/studies\/[0-9a-f-]{36}$/);
    const studyUrl = page.url();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByTestId("study-status")).toHaveText("Draft");
    await expect(page.getByText("Safety 1", { exact: false })).toBeVisible();
    await expect(page.getByRole("link", { name: "Import", exact: true })).toHaveAttribute("href", /\/import$/);
    // The set-up checklist says what comes next, with a link for each step.
    const checklist = page.getByRole("list", { name: "Setting up the study" });
    await expect(checklist.locator('[data-step="import"]')).toHaveAttribute("data-done", "false");
    await expect(checklist.locator('[data-step="import"]')).toContainText("No questions yet.");
    await expect(checklist.getByRole("link", { name: "Import a file" })).toHaveAttribute("href", /\/import$/);
    await expect(checklist.locator('[data-step="open"]')).toContainText("Still a draft");
    await expect(checklist.locator('[data-step="assign"]')).toContainText("Possible once the study is open.");

    // Find it in the list, through the server-side search
    await page.goto("/studies");
    await page.getByLabel("Search studies").fill(String(stamp));
    await expect(page).toHaveURL(new RegExp(`q=${stamp}`));
    const studies = page.getByRole("table", { name: "Studies" });
    await expect(studies.getByRole("link", { name })).toBeVisible();
    await expect(studies.getByRole("row")).toHaveCount(2); // the header and our study
    await studies.getByRole("link", { name }).click();
    await expect(page).toHaveURL(studyUrl);

    // Edit a setting; an invalid value is explained next to its field
    await page.getByRole("navigation", { name: "Study sections" }).getByRole("link", { name: "Settings" }).click();
    await page.getByLabel("Primary graders per response set (k)").fill("9");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("gradersPerSet must be at most 5")).toBeVisible();
    await page.getByLabel("Primary graders per response set (k)").fill("3");
    await page.getByLabel("Repetitions per prompt (N)").fill("5");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Settings saved." })).toBeVisible();
    await page.getByRole("navigation", { name: "Study sections" }).getByRole("link", { name: "Overview" }).click();
    await expect(page.getByText("Answers per prompt (N)").locator("..")).toContainText("5");
    await expect(page.getByText("Primary graders per set (k)").locator("..")).toContainText("3");

    // Add a grader and see the one-time password
    await page.getByRole("navigation", { name: "Study sections" }).getByRole("link", { name: "Graders" }).click();
    const email = `e2e-grader-${stamp}@hospital.example`;
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Name", { exact: true }).fill("Dr. E2E Grader");
    await page.getByLabel("Specialties", { exact: true }).fill("Ophthalmology, Anesthesia");
    await page.getByRole("button", { name: "Add grader" }).click();
    await expect(page.getByText("One-time password")).toBeVisible();
    const password = (await page.getByTestId("initial-password").textContent())?.trim() ?? "";
    expect(password).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){3}$/);
    const graders = page.getByRole("table", { name: "Graders" });
    await expect(graders).toContainText(email);
    await expect(graders).toContainText("Anesthesia, Ophthalmology");
    await page.screenshot({ path: test.info().outputPath("grader-added.png"), fullPage: true });

    // Open the study
    await page.getByRole("navigation", { name: "Study sections" }).getByRole("link", { name: "Overview" }).click();
    await page.getByRole("button", { name: "Open study" }).click();
    await expect(page.getByTestId("study-status")).toHaveText("Open");
    await expect(page.getByRole("button", { name: "Close study" })).toBeVisible();
    await expect(checklist.locator('[data-step="open"]')).toHaveAttribute("data-done", "true");
    await expect(checklist.locator('[data-step="graders"]')).toContainText("1 grader: each set needs 3 different graders.");
    await expect(checklist.getByRole("link", { name: "Assign graders" })).toHaveAttribute("href", /\/assignments$/);

    // The grader signs in with the password they were handed
    const graderContext = await browser.newContext();
    const graderPage = await graderContext.newPage();
    await signIn(graderPage, { email, password });
    await expect(graderPage).toHaveURL(/\/queue$/);
    const refused = await graderPage.request.get(`/api/v1/studies`);
    expect(refused.status()).toBe(403);
    await graderContext.close();
  });

  test("the API documentation page lists the study endpoints", async ({ page }) => {
    await signIn(page, demo.lead);
    await page.goto("/api-docs");
    const endpoints = page.getByRole("navigation", { name: "Endpoints" });
    for (const path of ["/api/v1/studies", "/api/v1/studies/{id}", "/api/v1/studies/{id}/items", "/api/v1/studies/{id}/graders/{userId}"]) {
      await expect(endpoints.getByText(path, { exact: true }).first()).toBeVisible();
    }
    await expect(page.locator("#schema-CreateStudy")).toContainText("gradersPerSet");
  });
});
