import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { demo, signIn } from "./fixtures";

/**
 * Issue 33, item 2: a lead imports answers with reference answers (the import page, a CSV with
 * reference_answer) into a study with its own instrument (N/A, a nominal item, no total, one
 * answer per question); a grader grades every set; the lead opens the Reference metrics tab,
 * sees the heatmap and the metric-vs-expert table, and follows a disagreement to the set's
 * detail. axe clean.
 */
const likert = (n: number) => Array.from({ length: n }, (_, i) => ({ value: i + 1, label: String(i + 1) }));
const never = { rule: "never" };
const RUBRIC = {
  key: "reply_review",
  name: "Reply review",
  version: 1,
  dimensions: [
    { key: "accuracy", name: "Accuracy", scope: "first_answer", scale: { kind: "ordinal", allowNA: true, levels: likert(5) }, escalation: never },
    { key: "tone", name: "Tone", scope: "first_answer", scale: { kind: "nominal", levels: [{ value: "warm", label: "Warm" }, { value: "cold", label: "Cold" }] }, escalation: never },
    { key: "clarity", name: "Clarity", scope: "first_answer", scale: { kind: "ordinal", levels: likert(3) }, escalation: never },
  ],
  totals: [],
};
const COPY = "Echo-Copier";
const PARA = "Para-Phraser";
const QUESTIONS = [
  ["R1", "Ophthalmology", "First-line treatment of acute angle-closure glaucoma?", "Lower the intraocular pressure with topical timolol and IV acetazolamide, then laser iridotomy."],
  ["R2", "Anesthesia", "Maximum dose of lidocaine with epinephrine?", "Lidocaine with epinephrine: at most 7 mg/kg."],
  ["R3", "Ophthalmology", "When is a retinal detachment an emergency?", "A macula-on retinal detachment needs surgery within a day."],
  ["R4", "Anesthesia", "How long to fast before elective surgery?", "Six hours for food and two hours for clear fluids."],
] as const;

function answersCsv(): string {
  const cell = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const rows = ["item_id,specialty,question,reference_answer,model,repetition,response"];
  for (const [id, specialty, question, reference] of QUESTIONS) {
    // One model copies the reference word for word (the metrics' best), the other says it in its own words.
    rows.push([id, specialty, cell(question), cell(reference), COPY, 1, cell(reference)].join(","));
    rows.push([id, specialty, cell(question), cell(reference), PARA, 1, cell(`In short: ${question.toLowerCase()} Ask your clinician; the guideline answer differs by patient.`)].join(","));
  }
  return rows.join("\n") + "\n";
}

test("a lead imports answers with references and reads the metrics beside the experts' scores", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  await signIn(page, demo.lead);
  const created = await page.request.post("/api/v1/studies", { data: { name: `Reference metrics ${stamp}`, rubrics: [RUBRIC], repetitions: 1, gradersPerSet: 1 } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  await page.goto(`/studies/${id}/import`);
  await page.getByLabel("CSV or JSON file").setInputFiles({ name: "answers.csv", mimeType: "text/csv", buffer: Buffer.from(answersCsv()) });
  await page.getByRole("button", { name: "Import 8 answers" }).click();
  await expect(page.getByRole("heading", { name: "Imported" })).toBeVisible();

  const added = await page.request.post(`/api/v1/studies/${id}/graders`, { data: { email: `metrics-${stamp}@hospital.example`, name: "Dr. Metrics Grader" } });
  expect(added.status(), await added.text()).toBe(201);
  const { initialPassword } = (await added.json()) as { initialPassword: string };
  expect((await page.request.patch(`/api/v1/studies/${id}`, { data: { status: "OPEN" } })).status()).toBe(200);
  expect((await page.request.post(`/api/v1/studies/${id}/assignments`, { data: { seed: "metrics" } })).status()).toBe(200);

  // The grader (blind to the model) prefers the answers in their own words; one copied answer's accuracy is N/A.
  const context = await browser.newContext();
  const gp = await context.newPage();
  await signIn(gp, { email: `metrics-${stamp}@hospital.example`, password: initialPassword });
  const { assignments } = (await (await gp.request.get("/api/v1/me/assignments")).json()) as { assignments: { id: string }[] };
  expect(assignments).toHaveLength(8);
  for (const a of assignments) {
    const view = (await (await gp.request.get(`/api/v1/assignments/${a.id}`)).json()) as { answers: { text: string }[] };
    const copied = QUESTIONS.some((q) => view.answers[0].text === q[3]);
    const na = copied && view.answers[0].text === QUESTIONS[3][3];
    const scores = [
      { rubric: RUBRIC.key, dimension: "accuracy", repetition: 1, score: na ? null : copied ? 2 : 5, ...(na ? { na: true } : {}) },
      { rubric: RUBRIC.key, dimension: "tone", repetition: 1, score: copied ? "cold" : "warm" },
      { rubric: RUBRIC.key, dimension: "clarity", repetition: 1, score: copied ? 1 : 3 },
    ];
    const put = await gp.request.put(`/api/v1/assignments/${a.id}/grades`, { data: { scores, submit: true } });
    expect(put.status(), await put.text()).toBe(200);
  }
  await context.close();

  await page.goto(`/studies/${id}`);
  await page.getByRole("navigation", { name: "Study sections" }).getByRole("link", { name: "Reference metrics" }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${id}/reference-metrics`));
  await expect(page.getByRole("heading", { name: "Reference metrics", exact: true })).toBeVisible();

  // The heatmap: one panel per model and one for all; the copier's BLEU is 1 in every specialty.
  const heatmap = page.getByTestId("panel-metric-heatmap");
  await expect(heatmap.getByRole("img", { name: /Heatmap of reference-based metrics/ })).toBeVisible();
  await expect(heatmap.locator(`[data-cell="${COPY}|Ophthalmology|BLEU"]`)).toContainText("1.000");
  await expect(heatmap.locator(`[data-cell="${COPY}|Ophthalmology|BLEU"]`)).toContainText("n = 2");
  await expect(heatmap.locator(`[data-panel="All models"]`)).toBeVisible();
  await expect(heatmap.getByRole("button", { name: "SVG" })).toBeVisible();

  // Metric against expert: the rubric's ordinal dimensions, no total row; the nominal item is named as skipped.
  const table = page.getByTestId("metric-expert-table");
  await expect(table).toBeVisible();
  await expect(table).toContainText("Accuracy (1-5)");
  await expect(table).toContainText("Clarity (1-3)");
  await expect(table).not.toContainText("total");
  await expect(page.getByTestId("skipped-dimensions")).toContainText("Tone (nominal)");
  // All models and specialties: BLEU against clarity, 8 sets, falls as the experts rise.
  const clarityBleu = table.getByRole("row").filter({ hasText: "Clarity (1-3)" }).filter({ hasText: "BLEU" });
  await expect(clarityBleu).toContainText("8");
  await expect(clarityBleu).toContainText("−");

  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`)).toEqual([]);

  // One group: the copier alone has a constant BLEU, so no correlation, and the page does not break.
  await page.getByRole("navigation", { name: "Group of the correlations" }).getByRole("link", { name: COPY }).click();
  await expect(page).toHaveURL(/model=Echo-Copier/);
  await expect(page.getByRole("heading", { name: `Metric against expert scores — ${COPY}, All specialties` })).toBeVisible();

  // A copied answer scores high on BLEU and low with the experts: its set's detail is one click away.
  const list = page.getByRole("table", { name: "BLEU high, experts low" });
  const link = list.getByRole("link").first();
  await expect(link).toContainText(COPY);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/studies/${id}/results/[0-9a-f-]{36}$`));
  await expect(page.getByTestId("set-detail")).toBeVisible();
  await expect(page.getByTestId("reference-metrics")).toContainText("1.000");
});
