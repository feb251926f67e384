import { writeFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { demo, signIn } from "./fixtures";

/**
 * Issue 31's admin, judge and import points, in the browser: external raters
 * apart from accounts, the deactivation's confirmation with the open work, a
 * judge's file checked without registering the judge, the judge card counting
 * imported scores, the import page keeping the file's name after a failed
 * check, and the assignment design stated where the lead assigns.
 */
async function chattogovarId(page: Page): Promise<string> {
  const list = await page.request.get(`/api/v1/studies?q=demo-chattogovar&pageSize=100`);
  const id = ((await list.json()) as { studies: { id: string; slug: string }[] }).studies.find((s) => s.slug === "demo-chattogovar")?.id;
  expect(id, "the demo's chattogovar study").toBeTruthy();
  return id!;
}

test("the admin's user list keeps imported raters apart, without Edit, and a deactivation names the open work", async ({ page }) => {
  await signIn(page, demo.admin);
  const users = ((await (await page.request.get("/api/v1/users")).json()) as { users: { name: string; email: string; external: boolean; openWork: { openAssignments: number }[] }[] }).users;
  const external = users.filter((u) => u.external);
  expect(external.length).toBeGreaterThan(0);
  await page.goto("/admin/users");
  const accounts = page.getByRole("table", { name: "Users" });
  await expect(accounts).toBeVisible();
  for (const u of external) await expect(accounts.getByRole("row").filter({ hasText: u.email })).toHaveCount(0);
  const section = page.getByTestId("external-raters");
  await section.locator("summary").click();
  const raters = section.getByRole("table", { name: "Imported external raters" });
  await expect(raters.getByRole("row")).toHaveCount(external.length + 1);
  await expect(section.getByRole("button", { name: /Edit/ })).toHaveCount(0);

  // A grader with open work: the confirmation says how much, and that the leads are told. Dismissed: nothing changes.
  const busy = users.find((u) => !u.external && u.openWork.reduce((n, w) => n + w.openAssignments, 0) > 0);
  expect(busy, "a demo grader with open assignments").toBeTruthy();
  const open = busy!.openWork.reduce((n, w) => n + w.openAssignments, 0);
  await page.getByRole("button", { name: `Edit ${busy!.email}` }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Active").uncheck();
  const message = new Promise<string>((resolve) => page.once("dialog", (d) => (resolve(d.message()), void d.dismiss())));
  await dialog.getByRole("button", { name: /Save/ }).click();
  const text = await message;
  expect(text).toContain(`They hold ${open} open assignment`);
  expect(text).toContain("leads are told");
  expect(((await (await page.request.get("/api/v1/users")).json()) as { users: { email: string; active: boolean }[] }).users.find((u) => u.email === busy!.email)!.active).toBe(true);
});

test("a judge's file is checked without registering the judge; the card counts imported scores", async ({ page }) => {
  await signIn(page, demo.lead);
  const id = await chattogovarId(page);
  await page.goto(`/studies/${id}`);
  // The demo's GPT-4o judge was imported, never run here.
  await expect(page.getByTestId("judge-scores-count").first()).toContainText(/[\d,]+ scores stored \(imported; not run from here\)/);

  const form = page.getByRole("form", { name: "Import a judge's scores" });
  await form.getByLabel("Judge").selectOption({ label: "A new judge…" });
  const name = `Checked only ${Date.now()}`;
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Model").fill("gpt-4o");
  const bad = test.info().outputPath("bad-judge.csv");
  writeFileSync(bad, "item_id,model,repetition,dimension,score\n1,GPT-4o,1,accuracy,11\n");
  await form.getByLabel("Scores (CSV)").setInputFiles(bad);
  await form.getByRole("button", { name: "Check file" }).click();
  await expect(form.getByTestId("judge-problems")).toBeVisible();
  const good = test.info().outputPath("good-judge.csv");
  writeFileSync(good, "item_id,model,repetition,dimension,score\n1,GPT-4o,1,accuracy,7\n");
  await form.getByLabel("Scores (CSV)").setInputFiles(good);
  await form.getByRole("button", { name: "Check file" }).click();
  await expect(form.getByTestId("judge-check")).toContainText("Checked: 1 rows, all valid");
  const judges = ((await (await page.request.get(`/api/v1/studies/${id}/judges`)).json()) as { judges: { name: string }[] }).judges;
  expect(judges.map((j) => j.name)).not.toContain(name);
});

test("the import page keeps the file's name after a failed check", async ({ page }) => {
  await signIn(page, demo.lead);
  const created = await page.request.post("/api/v1/studies", { data: { name: `File name e2e ${Date.now()}`, rubrics: ["SCORE"], repetitions: 1, gradersPerSet: 2 } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/studies/${id}/import`);
  await page.waitForLoadState("networkidle");
  const bad = "item_id,specialty,question,model,repetition,response\nX1,Genetics,,GPT-4o,1,An answer\n";
  await page.getByLabel("CSV or JSON file").setInputFiles({ name: "answers-with-problems.csv", mimeType: "text/csv", buffer: Buffer.from(bad) });
  await expect(page.getByRole("table", { name: "Problems in the file" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "answers-with-problems.csv" })).toBeVisible();
  await expect(page.getByTestId("chosen-file")).toContainText("answers-with-problems.csv");
});

test("the assignment design is chosen where the lead assigns and stated on the study page", async ({ page }) => {
  await signIn(page, demo.lead);
  const id = await chattogovarId(page);
  await page.goto(`/studies/${id}/assignments`);
  await expect(page.getByRole("radio", { name: /each grader sees at most one model's answers to a question/ })).toBeVisible();
  await expect(page.getByRole("radio", { name: /load balanced/ })).toBeChecked();
  await expect(page.getByTestId("assignment-design")).toContainText("load balanced");
  await page.goto(`/studies/${id}`);
  await expect(page.getByTestId("assignment-design")).toContainText("load balanced");
});
