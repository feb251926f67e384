import { expect, type Page } from "@playwright/test";

/**
 * A lead's study set-up steps as the specs walk them in the browser: the Import tab, the Graders
 * tab and opening the study. Each waits for what the page says back.
 */
export type AddedGrader = { email: string; name: string; password: string };

const sections = (page: Page) => page.getByRole("navigation", { name: "Study sections" });

/** Imports an answers CSV: the check's count of answers first, then the import. `checked` runs in between (e.g. axe on the checked file). */
export async function importAnswers(page: Page, csv: string, answers: number, opts: { fileName?: string; checked?: () => Promise<void> } = {}): Promise<void> {
  await sections(page).getByRole("link", { name: "Import" }).click();
  await page.getByLabel("CSV or JSON file").setInputFiles({ name: opts.fileName ?? "answers.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(page.getByTestId("answers-created")).toHaveText(String(answers));
  await opts.checked?.();
  await page.getByRole("button", { name: `Import ${answers} answers` }).click();
  await expect(page.getByRole("heading", { name: "Imported" })).toBeVisible();
}

/** Adds graders 1..count on the Graders tab, each with the one-time password the page shows once. */
export async function addGraders(page: Page, count: number, who: (i: number) => { email: string; name: string }): Promise<AddedGrader[]> {
  await sections(page).getByRole("link", { name: "Graders" }).click();
  const added: AddedGrader[] = [];
  for (let i = 1; i <= count; i++) {
    const { email, name } = who(i);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByRole("button", { name: "Add grader" }).click();
    await expect(page.getByRole("table", { name: "Graders" })).toContainText(email);
    added.push({ email, name, password: (await page.getByTestId("initial-password").textContent())!.trim() });
  }
  return added;
}

/** Opens the study from its Overview tab. */
export async function openStudy(page: Page): Promise<void> {
  await sections(page).getByRole("link", { name: "Overview" }).click();
  await page.getByRole("button", { name: "Open study" }).click();
  await expect(page.getByTestId("study-status")).toHaveText("Open");
}
