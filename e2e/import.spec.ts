import { expect, test } from "@playwright/test";
import { demo, signIn } from "./fixtures";

const HEADER = "item_id,specialty,question,reference_answer,model,repetition,response";
const QUESTION = '"What is the first-line treatment of acute angle-closure glaucoma?","Lower IOP: timolol, acetazolamide; then iridotomy."';

const good = [
  HEADER,
  `oph-001,Ophthalmology,${QUESTION},gpt-x,1,"Start with:\n- timolol\n- acetazolamide"`,
  `oph-001,Ophthalmology,${QUESTION},gpt-x,2,Timolol and acetazolamide.`,
  `oph-001,Ophthalmology,${QUESTION},gpt-x,3,"Lower the pressure, then refer."`,
].join("\r\n");

const bad = [HEADER, `oph-001,Ophthalmology,,,gpt-x,1,An answer`, `oph-002,Ophthalmology,${QUESTION},gpt-x,7,Another answer`].join("\n");

test.describe("import of questions and answers", () => {
  test("a lead checks a bad file, sees every problem, then imports a good one", async ({ page }) => {
    await signIn(page, demo.lead);
    const created = await page.request.post("/api/v1/studies", {
      data: { name: `Import e2e ${Date.now()}`, rubrics: ["SCORE"], repetitions: 3, gradersPerSet: 2 },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };

    await page.goto(`/studies/${id}/import`);
    await expect(page.getByRole("heading", { name: "Import questions and answers" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Download an example CSV" })).toHaveAttribute("href", "/examples/import-example.csv");

    const input = page.getByLabel("CSV or JSON file");
    await input.setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from(bad) });
    const problems = page.getByRole("table", { name: "Problems in the file" });
    await expect(problems).toBeVisible();
    await expect(problems.getByRole("row")).toHaveCount(3);
    await expect(problems).toContainText("question is empty");
    await expect(problems).toContainText("repetition 7 is outside 1..3");
    await expect(page.getByRole("alert").first()).toContainText("2 problems in the file; nothing was imported");
    await page.screenshot({ path: test.info().outputPath("import-problems.png"), fullPage: true });

    await input.setInputFiles({ name: "good.csv", mimeType: "text/csv", buffer: Buffer.from(good) });
    await expect(page.getByText("is ready to import")).toBeVisible();
    await expect(page.getByTestId("answers-created")).toHaveText("3");
    await page.getByRole("button", { name: "Import 3 answers" }).click();
    await expect(page.getByRole("heading", { name: "Imported" })).toBeVisible();
    await expect(page.getByText("3 answers added, 0 replaced, 0 unchanged.")).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("import-done.png"), fullPage: true });

    // The same file again changes nothing, and says so.
    await input.setInputFiles({ name: "good.csv", mimeType: "text/csv", buffer: Buffer.from(good) });
    await expect(page.getByTestId("answers-created")).toHaveText("0");
    await page.getByRole("button", { name: "Import 3 answers" }).click();
    await expect(page.getByText("Everything in this file was already in the study.")).toBeVisible();
  });

  test("answers that name a model are shown before the import, then redacted in the browser", async ({ page }) => {
    await signIn(page, demo.lead);
    const created = await page.request.post("/api/v1/studies", { data: { name: `Mentions e2e ${Date.now()}`, rubrics: ["SCORE"], repetitions: 1, gradersPerSet: 2 } });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const file = [
      HEADER,
      `card-001,Cardiology,"Chest pain at rest?",Ref,CardioBot,1,"As CardioBot, I suggest calling emergency services. Source: MedFacts."`,
      `card-002,Cardiology,"Palpitations?",Ref,CardioBot,1,"Per the MedFacts database, see a cardiologist."`,
      `card-001,Cardiology,"Chest pain at rest?",Ref,Helix,1,"Call emergency services."`,
      `card-002,Cardiology,"Palpitations?",Ref,Helix,1,"See a cardiologist."`,
    ].join("\n");

    await page.goto(`/studies/${id}/import`);
    await page.getByLabel("Words that would reveal a model (optional)").fill("MedFacts");
    await page.getByLabel("CSV or JSON file").setInputFiles({ name: "mentions.csv", mimeType: "text/csv", buffer: Buffer.from(file) });
    const mentions = page.getByTestId("model-mentions");
    await expect(mentions).toContainText("2 answers name a model");
    await expect(mentions).toContainText("CardioBot: 2 answers");
    await expect(mentions).toContainText("card-002 answer 1, “MedFacts”");
    await page.getByRole("button", { name: "Import 4 answers" }).click();
    await expect(page.getByRole("heading", { name: "Imported" })).toBeVisible();

    await page.getByLabel("Word or phrase to take out").fill("MedFacts");
    await page.getByLabel("Replace with").fill("[source]");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByTestId("redaction-preview")).toContainText("2 answers contain it");
    await expect(page.getByTestId("redaction-preview")).toContainText("[source]");
    await page.getByRole("button", { name: "Redact 2 answers" }).click();
    await expect(page.getByRole("status").filter({ hasText: "2 answers changed" })).toBeVisible();
    // Nothing names the source any more.
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByText("No answer contains “MedFacts” as a word.")).toBeVisible();
  });
});
