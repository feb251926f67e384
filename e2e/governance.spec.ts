import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { demo, e2eDatabaseUrl, gradingFormShown, signIn } from "./fixtures";

/**
 * Issue 33, stages 3-4: the lead triages the closed pilot's final sets (N = 3)
 * on the Governance tab, decides a set with a note, changes the rule and
 * returns to the defaults; the decision is in the audit trail. axe clean.
 */
test("a lead triages the pilot's sets, decides one with a note, and sets the rule", async ({ page }) => {
  test.setTimeout(120_000);
  const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await db.connect();
  const pilot = (await db.query<{ id: string }>(`SELECT id FROM "Study" WHERE slug = 'demo-pilot-graded'`)).rows[0].id;
  const finals = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM "ResponseSet" WHERE "studyId" = $1 AND status IN ('AGREED', 'ADJUDICATED')`, [pilot])).rows[0].n);

  await signIn(page, demo.lead);
  await page.goto(`/studies/${pilot}`);
  await page.getByRole("navigation", { name: "Study sections" }).getByRole("link", { name: "Governance" }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${pilot}/governance`));
  await expect(
    page.getByText("The default rule: accept at most 25% of the scale, review up to 50%, reject above; review from 1 grader flagging a contradiction, reject from 2 graders."),
  ).toBeVisible();

  const queue = page.getByRole("table", { name: "Triage queue" });
  await expect(queue.getByRole("row")).toHaveCount(finals + 1);
  const counts = page.getByRole("table", { name: "Triage per model and specialty" });
  const cells = await counts.getByRole("row").evaluateAll((rows) => rows.slice(1).map((r) => [...r.querySelectorAll("td")].map((td) => Number(td.textContent)).slice(2, 6)));
  expect(cells.flat().reduce((a, b) => a + b, 0)).toBe(finals);

  // The first set waiting for a decision: rejected, with a note.
  await page.getByRole("link", { name: "Not decided" }).click();
  await expect(page).toHaveURL(/verdict=undecided/);
  const first = queue.getByRole("row").nth(1);
  const item = (await first.getByRole("cell").first().innerText()).trim();
  const model = (await first.getByRole("cell").nth(2).innerText()).trim();
  await first.getByLabel(`Decision on ${item}, ${model}`).selectOption("REJECTED");
  await first.getByRole("button", { name: "Save decision" }).click();
  await expect(first.getByRole("alert")).toContainText("a note of at least 3 characters is required");
  await first.getByLabel(`Note on ${item}, ${model}`).fill("Answers 2 and 3 disagree on the dose");
  await first.getByRole("button", { name: "Save decision" }).click();
  await expect(queue.getByRole("row")).toHaveCount(finals); // one fewer undecided
  await page.getByRole("link", { name: "All", exact: true }).click();
  await expect(page.getByText("Rejected: Answers 2 and 3 disagree on the dose")).toBeVisible();

  // The study's own rule, then back to the defaults.
  await page.getByLabel("Accept when drift is at most").fill("0.5");
  await page.getByLabel("Reject when drift is above").fill("0.25");
  await page.getByRole("button", { name: "Save rule" }).click();
  const ruleForm = page.locator("form").filter({ has: page.getByRole("button", { name: "Save rule" }) });
  await expect(ruleForm.getByRole("alert")).toContainText("reviewAtMost cannot be below acceptAtMost");
  await page.getByLabel("Reject when drift is above").fill("0.75");
  await page.getByRole("button", { name: "Save rule" }).click();
  await expect(page.getByText("This study's rule: accept at most 50% of the scale, review up to 75%, reject above; review from 1 grader flagging a contradiction")).toBeVisible();
  // Flags that only inform: both counts emptied ("never").
  await page.getByLabel("Review from this many contradiction flags").fill("");
  await page.getByLabel("Reject from this many contradiction flags").fill("");
  await page.getByRole("button", { name: "Save rule" }).click();
  await expect(page.getByText("reject above; contradiction flags shown but not escalating.")).toBeVisible();
  await expect(page.getByText("The defaults: accept at most 25%, review up to 50%; review from 1 grader flagging a contradiction, reject from 2 graders.")).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  await page.getByRole("button", { name: "Back to the defaults" }).click();
  await expect(page.getByText("The default rule: accept at most 25% of the scale")).toBeVisible();

  const audit = await db.query<{ action: string }>(`SELECT action FROM "AuditEvent" WHERE "studyId" = $1 AND action IN ('set.triage_decision', 'study.triage_rule') ORDER BY id`, [pilot]);
  expect(audit.rows.map((r) => r.action)).toEqual(["set.triage_decision", "study.triage_rule", "study.triage_rule", "study.triage_rule"]);
  await db.end();
});

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const seriousViolations = async (page: import("@playwright/test").Page) =>
  (await new AxeBuilder({ page }).withTags(TAGS).analyze()).violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);

/** A study's own instrument for N = 2: one ordinal item on each answer (1-3), nothing else. */
const PANEL = {
  key: "dose_panel",
  name: "Dose panel",
  version: 1,
  dimensions: [{ key: "accuracy", name: "Accuracy", scope: "each_answer", scale: { kind: "ordinal", levels: ["Wrong", "Partly right", "Right"].map((label, i) => ({ value: i + 1, label })) } }],
  totals: [],
};

/**
 * Stage 3: a grader flags, on the grading page, that a set's two answers contradict each other (with a note);
 * the other grader does not; both score every answer "Right", so the drift is nil and the flag alone sends the
 * set to review on the lead's Governance page, where the flag and its note show. axe clean on both pages.
 */
test("a grader flags contradicting answers in the browser; the lead sees the flag on the Governance page", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, demo.lead);
  const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const created = await page.request.post("/api/v1/studies", { data: { name: `Contradictions ${stamp}`, rubrics: [PANEL], repetitions: 2, gradersPerSet: 2 } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const rows = [1, 2].map((r) => ({
    item_id: "DOSE-1",
    specialty: "Pharmacy",
    question: "How much paracetamol may an adult take in a day?",
    reference_answer: "At most 4 g in 24 hours.",
    model: "Model-Contra",
    repetition: r,
    response: r === 1 ? "Up to 4 g a day, in doses at least 4 hours apart." : "Up to 8 g a day is safe for adults.",
  }));
  expect((await page.request.post(`/api/v1/studies/${id}/import`, { data: rows })).status()).toBe(200);
  const graders: { email: string; password: string }[] = [];
  for (let i = 1; i <= 2; i++) {
    const email = `contra-${stamp}-${i}@hospital.example`;
    const added = await page.request.post(`/api/v1/studies/${id}/graders`, { data: { email, name: `Dr. Contra ${i}` } });
    expect(added.status(), await added.text()).toBe(201);
    graders.push({ email, password: ((await added.json()) as { initialPassword: string }).initialPassword });
  }
  expect((await page.request.patch(`/api/v1/studies/${id}`, { data: { status: "OPEN" } })).status()).toBe(200);
  expect((await page.request.post(`/api/v1/studies/${id}/assignments`, { data: { seed: "contra" } })).status()).toBe(200);

  // Grader 1, on the page: both answers "Right", and the contradiction flagged with a note.
  const desk = await browser.newContext();
  const gp = await desk.newPage();
  await signIn(gp, graders[0]);
  const mine = (await (await gp.request.get("/api/v1/me/assignments")).json()) as { assignments: { id: string }[] };
  expect(mine.assignments).toHaveLength(1);
  await gp.goto(`/grade/${mine.assignments[0].id}`);
  await gradingFormShown(gp);
  for (const r of [1, 2]) {
    const option = gp.locator(`fieldset[data-cell="${PANEL.key}/accuracy/${r}"]`).locator("label.level-option").filter({ has: gp.locator(".level-label", { hasText: /^Right$/ }) });
    await option.click();
    await expect(option.locator('input[type="radio"]')).toBeChecked();
  }
  const section = gp.getByRole("region", { name: "Do the answers contradict each other?" });
  await expect(section).toBeVisible();
  await section.getByRole("checkbox", { name: "The answers contradict each other" }).check();
  await section.getByRole("textbox", { name: /Where\?/ }).fill("Answer 2 doubles the daily maximum");
  expect(await seriousViolations(gp)).toEqual([]);
  const here = new URL(gp.url()).pathname;
  await gp.getByRole("button", { name: "Submit grades" }).first().click();
  await gp.waitForURL((url) => url.pathname !== here);
  // Stored with the submission, and the grader's own view shows it back.
  const view = (await (await gp.request.get(`/api/v1/assignments/${mine.assignments[0].id}`)).json()) as { contradiction: unknown };
  expect(view.contradiction).toEqual({ flag: true, note: "Answer 2 doubles the daily maximum" });
  await desk.close();

  // Grader 2, through the API: the same scores, no contradiction; and blind to grader 1's flag.
  const other = await browser.newContext();
  const op = await other.newPage();
  await signIn(op, graders[1]);
  const theirs = (await (await op.request.get("/api/v1/me/assignments")).json()) as { assignments: { id: string }[] };
  const before = await (await op.request.get(`/api/v1/assignments/${theirs.assignments[0].id}`)).text();
  expect(before).not.toContain("doubles the daily maximum");
  expect((JSON.parse(before) as { contradiction: unknown }).contradiction).toEqual({ flag: false, note: null });
  const scores = [1, 2].map((repetition) => ({ rubric: PANEL.key, dimension: "accuracy", repetition, score: 3 }));
  const put = await op.request.put(`/api/v1/assignments/${theirs.assignments[0].id}/grades`, { data: { scores, contradiction: { flag: false }, submit: true } });
  expect(put.status(), await put.text()).toBe(200);
  await other.close();

  // The lead: the set is final with no drift, and the one flag sends it to review.
  await page.goto(`/studies/${id}/governance`);
  await expect(page.getByText("review from 1 grader flagging a contradiction, reject from 2 graders")).toBeVisible();
  const queue = page.getByRole("table", { name: "Triage queue" });
  const row = queue.getByRole("row").nth(1);
  await expect(row.getByTestId("contradiction-flags")).toContainText("1 of 2 graders");
  await expect(row.getByTestId("contradiction-flags")).toContainText("Answer 2 doubles the daily maximum");
  await expect(row.getByRole("cell").nth(3)).toHaveText("0%");
  await expect(row.getByRole("cell").nth(5)).toHaveText("review");
  expect(await seriousViolations(page)).toEqual([]);
});
