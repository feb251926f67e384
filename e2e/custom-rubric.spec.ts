import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser } from "@playwright/test";
import { demo, signIn } from "./fixtures";
import { addGraders, importAnswers, openStudy } from "./study-setup";

/**
 * Rubrics as data, in Chromium: a lead sets up the cardiology study's instrument
 * (../shared/realdata/cardiology: Accuracy, Completeness, Clarity, Coherence,
 * each Likert 1-5, one answer per model) in the rubric builder, seeing the
 * grader's form beside it; two new graders grade every set in the generic form
 * with the keyboard, and the dashboard draws the rubric's radar and ranks the
 * models by its total.
 */
const DIMENSIONS = ["accuracy", "completeness", "clarity", "coherence"];
const MODELS = ["Cardio-Model-One", "Cardio-Model-Two"];

function answersCsv(): string {
  const rows = ["item_id,specialty,question,reference_answer,model,repetition,response"];
  for (let q = 1; q <= 3; q++) {
    // The first model answers in detail, the second vaguely: what the graders judge (they never see which model wrote it).
    rows.push(`CARD-${q},Cardiology,"How is condition ${q} treated?","Guideline ${q}.",${MODELS[0]},1,"A detailed, guideline-based answer about condition ${q}."`);
    rows.push(`CARD-${q},Cardiology,"How is condition ${q} treated?","Guideline ${q}.",${MODELS[1]},1,"A vague answer about condition ${q}."`);
  }
  return rows.join("\n") + "\n";
}

async function gradeAll(browser: Browser, grader: { email: string; password: string }, scoreFor: (detailed: boolean) => number) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, grader);
  const { assignments } = (await (await page.request.get("/api/v1/me/assignments")).json()) as { assignments: { id: string; position: number }[] };
  expect(assignments).toHaveLength(6);
  // The grader's own flow: the first set, then each submission opens the next one.
  await page.goto(`/grade/${[...assignments].sort((a, b) => a.position - b.position)[0].id}`);
  for (let i = 0; i < assignments.length; i++) {
    await expect(page.getByRole("heading", { name: "Cardiology criteria", level: 2 })).toBeVisible();
    await expect(page.getByText("0 / 4 scores")).toBeVisible();

    await expect(page.getByText(`Set ${i + 1} of 6`).first()).toBeVisible();
    // Blinded: the model is nowhere on the page.
    for (const m of MODELS) await expect(page.locator("body")).not.toContainText(m);
    const detailed = ((await page.locator("body").textContent()) ?? "").includes("A detailed, guideline-based answer");
    for (const d of DIMENSIONS) {
      const field = page.locator(`fieldset[data-cell="cardiology_criteria/${d}/1"]`);
      await field.locator('input[type="radio"]').first().focus();
      const score = scoreFor(detailed);
      await page.keyboard.press(String(score));
      await expect(field.locator(`input[value="${score}"]`)).toBeChecked();
    }
    await expect(page.getByText("4 / 4 scores")).toBeVisible();
    const here = new URL(page.url()).pathname;
    await page.getByRole("button", { name: "Submit grades" }).first().click();
    // The form opens the next set (or the queue after the last) by itself; the test then loads it afresh so
    // that it reads the new set's answer, not the previous page's while the client-side transition runs.
    await page.waitForURL((url) => url.pathname !== here);
    if (i < assignments.length - 1) await page.goto(page.url());
  }
  await expect(page).toHaveURL(/\/queue/);
  await expect(page.getByText("Your grades were submitted")).toBeVisible();
  await context.close();
}

test("a lead sets up the cardiology rubric (4 criteria, Likert 1-5, N = 1), graders grade it, the dashboard shows it", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const stamp = Date.now();
  await signIn(page, demo.lead);
  await page.goto("/studies/new");
  await page.getByLabel("Name", { exact: true }).fill(`Cardiology rubric ${stamp}`);
  // One answer per prompt: the published rubrics say what they leave out (issue 21, item 3).
  await page.getByLabel("Repetitions per prompt (N)").fill("1");
  const note = page.getByTestId("single-answer-note");
  await expect(note).toContainText("S.C.O.R.E.: Reproducibility left out; S.C.O.R.E. total (/20, without reproducibility: one answer per prompt)");
  await expect(note).toContainText("SAFE-LLM: Consistency left out");
  await page.getByRole("button", { name: "Remove S.C.O.R.E." }).click();
  await page.getByRole("button", { name: "Remove SAFE-LLM" }).click();
  await page.getByRole("button", { name: "Build a rubric" }).click();
  const builder = page.getByRole("region", { name: "Rubric builder" });
  await builder.getByLabel("Rubric name").fill("Cardiology criteria");
  for (const [i, name] of ["Accuracy", "Completeness", "Clarity", "Coherence"].entries()) {
    await builder.getByRole("button", { name: "Add a dimension" }).click();
    await builder.getByLabel(`Dimension ${i + 1} name`).fill(name);
  }
  // Two dimensions with one name are refused, naming the second, until it is renamed.
  await builder.getByLabel("Dimension 4 name").fill("Clarity");
  await expect(builder.getByRole("list", { name: "Problems with this rubric" })).toContainText('Dimension 4, name: the dimension key "clarity" is used twice');
  await builder.getByLabel("Dimension 4 name").fill("Coherence");
  // The grader's form, drawn beside it: four Likert 1-5 questions.
  const preview = builder.getByRole("region", { name: "Preview of the grader's form" });
  await expect(preview.locator("fieldset")).toHaveCount(4);
  await expect(preview.locator("fieldset").nth(3)).toContainText("Coherence");
  await expect(preview).toContainText("Total (4-20)");
  // The builder, open with its preview, passes the same WCAG 2.1 AA scan as every page.
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  await builder.getByRole("button", { name: "Add this rubric" }).click();
  const chosen = page.getByRole("list", { name: "Chosen rubrics" }).getByRole("listitem");
  await expect(chosen).toHaveCount(1);
  await expect(chosen).toContainText("Cardiology criteria");
  await expect(chosen).toContainText("4 dimensions (ordinal), Total (4-20)");
  // Its thresholds come from the document, one per criterion.
  for (const name of ["Accuracy", "Completeness", "Clarity", "Coherence"]) await expect(page.getByRole("group", { name, exact: true }).getByLabel("Spread (points)")).toHaveValue("2");
  await expect(note).toHaveCount(0);
  await page.getByRole("button", { name: "Create study" }).click();
  await expect(page).toHaveURL(/\/studies\/[0-9a-f-]{36}$/);
  const studyId = page.url().split("/").pop()!;
  await expect(page.getByText("Rubrics").locator("..")).toContainText("Cardiology criteria");

  const tabs = page.getByRole("navigation", { name: "Study sections" });
  await importAnswers(page, answersCsv(), 6);
  const graders = await addGraders(page, 2, (i) => ({ email: `cardio-${stamp}-${i}@hospital.example`, name: `Dr. Cardio ${i}` }));
  await openStudy(page);
  await tabs.getByRole("link", { name: "Assignments" }).click();
  await page.getByRole("button", { name: "Assign graders" }).click();
  await expect(page.getByRole("status").filter({ hasText: "12 new assignments over 6 complete sets" })).toBeVisible();

  // Both graders give the detailed answers 5s and the vague ones 3s: every set agrees.
  for (const g of graders) await gradeAll(browser, g, (detailed) => (detailed ? 5 : 3));

  await page.goto(`/studies/${studyId}/dashboard`);
  const radar = page.getByTestId("panel-radar-cardiology_criteria");
  await expect(radar).toBeVisible();
  await expect(radar).toContainText("Cardiology criteria profile by model");
  await expect(radar.locator(".recharts-radar-polygon")).toHaveCount(2);
  const ranking = await (await page.request.get(`/api/v1/studies/${studyId}/stats`)).json();
  expect(ranking.ranking.data.rows.filter((r: { specialty: string }) => r.specialty === "All specialties").map((r: { mean: number; maxTotal: number }) => [r.mean, r.maxTotal])).toEqual([
    [20, 20],
    [12, 20],
  ]);
  await page.goto(`/studies/${studyId}/exports`);
  const csv = await (await page.request.get(`/api/v1/studies/${studyId}/export?dataset=score-long`)).text();
  // The rubric's own columns, then the reference metrics (the questions have reference answers).
  expect(csv.split(/\r?\n/)[0]).toBe("domain,model,response_id,accuracy,completeness,clarity,coherence,bleu,rouge1,rougeL");

  // Settings after the pilot (issue 31, item 5): the study's own document read-only with its version, no
  // error, each dimension's escalation rule with how often it triggered on the grades so far.
  await page.goto(`/studies/${studyId}/settings`);
  await expect(page.getByText(/no rubric template/)).toHaveCount(0);
  await expect(page.getByRole("region", { name: "The study's rubric documents" })).toContainText("Cardiology criteria (key cardiology_criteria, version 1)");
  const accuracy = page.getByRole("group", { name: "Accuracy", exact: true });
  await expect(accuracy.getByLabel("Escalate")).toHaveValue("spread");
  await expect(accuracy.getByLabel("Spread (points)")).toHaveValue("2");
  await expect(accuracy).toContainText("escalated 0 of 6 sets with two primary grades (0%)");
  await accuracy.getByLabel("Escalate").selectOption("never");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Settings saved." })).toBeVisible();
  const study = await (await page.request.get(`/api/v1/studies/${studyId}`)).json();
  expect(study.escalationRules).toEqual({ cardiology_criteria: { accuracy: { rule: "never" } } });
});
