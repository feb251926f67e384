import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { CARDIOLOGY_RUBRIC } from "../tests/fixtures/realdata/rubrics";
import { demo, signIn } from "./fixtures";

const WORKBOOK = "tests/fixtures/realdata/cardiology/2_Data.xlsx";

test.describe("import of grades made elsewhere", () => {
  test("a lead maps the cardiology workbook's columns, checks, imports, and saves the mapping", async ({ page }) => {
    await signIn(page, demo.lead);
    const created = await page.request.post("/api/v1/studies", { data: { name: `Grades e2e ${Date.now()}`, rubrics: [CARDIOLOGY_RUBRIC], repetitions: 1, gradersPerSet: 3 } });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };

    await page.goto(`/studies/${id}`);
    await page.getByRole("link", { name: "Import grades" }).click();
    await expect(page.getByRole("heading", { name: "Import grades" })).toBeVisible();

    // A file with a score off the scale: every problem listed with its row and column, nothing written.
    const input = page.getByLabel("Grades file");
    await input.setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from("item_id,model,rater,dimension,score\n1,A,R1,accuracy,9\n1,A,R1,Fluency,3\n") });
    await expect(page.getByTestId("detected")).toContainText("CSV file; detected layout: long");
    await page.getByRole("button", { name: "Check" }).click();
    const problems = page.getByRole("table", { name: "Problems" });
    await expect(problems.getByRole("row")).toHaveCount(3);
    await expect(problems).toContainText('"9" is not a level of Accuracy');
    await expect(problems).toContainText('"Fluency" is not a dimension');

    // The published workbook: wide, one sheet per criterion; requests 51-70 are 1_1..1_20 in some sheets.
    await input.setInputFiles({ name: "2_Data.xlsx", mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", buffer: readFileSync(WORKBOOK) });
    await expect(page.getByTestId("detected")).toContainText("Workbook with 4 sheets: Accuracy, Completeness, Clarity, Coherence");
    await expect(page.getByTestId("detected")).toContainText("detected layout: wide");
    await expect(page.getByRole("table", { name: "First rows of the file" })).toContainText("Reviewer3");
    await expect(page.getByLabel("Item id")).toHaveValue("Request");
    await expect(page.getByLabel("Dimension of Coherence")).toHaveValue("cardiology/coherence");
    await page.getByRole("button", { name: "Add a rewrite rule" }).click();
    await page.getByLabel("Rule 1: match").fill("1_(\\d+)");
    await page.getByLabel("Rule 1: add").fill("50");
    await page.getByRole("button", { name: "Check" }).click();
    await expect(page.getByText("The file is ready to import")).toBeVisible();
    await expect(page.getByTestId("count-items")).toHaveText("70");
    await expect(page.getByTestId("count-grades")).toHaveText("2,520");
    await page.screenshot({ path: test.info().outputPath("grade-import-checked.png"), fullPage: true });
    await page.getByRole("button", { name: "Import grades" }).click();
    await expect(page.getByText("Imported.")).toBeVisible();
    await expect(page.getByText("2,520 created, 0 unchanged")).toBeVisible();

    await page.getByLabel("Save this mapping as").fill("Cardiology workbook");
    await page.getByRole("button", { name: "Save mapping" }).click();
    await expect(page.getByText("Saved as “Cardiology workbook”.")).toBeVisible();

    // Saved in PostgreSQL: offered after a reload, and the same file again changes nothing.
    await page.reload();
    await page.getByLabel("Grades file").setInputFiles(WORKBOOK);
    await page.getByLabel("Use a saved mapping").selectOption("Cardiology workbook");
    await expect(page.getByLabel("Rule 1: add")).toHaveValue("50");
    await page.getByRole("button", { name: "Check" }).click();
    await expect(page.getByText("0 to create, 2,520 unchanged")).toBeVisible();
  });
});
