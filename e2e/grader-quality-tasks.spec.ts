import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import pg from "pg";
import { demo, e2eDatabaseUrl, gradingFormShown, signIn } from "./fixtures";

/**
 * Issue 35, items 1-3 in Chromium, on an instrument that is no template (a nominal item and an
 * ordinal one that may be N/A, no total, one answer per question): the lead marks three
 * calibration sets and a gold set (its expected score filled from a pilot study) through the UI,
 * sees the 422 and 409 at the fields, and turns on required calibration; a grader fails a round,
 * reads the expected score and the rationale, passes the next, then grades real work and a gold set
 * that looks like any other set; the lead reads the gold accuracy and excludes the grader. axe finds
 * no serious or critical violation on any of the new pages' states.
 */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
async function axeClean(page: Page, where: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${where}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

const KEY = "triage_check";
const LEVELS = ["Wrong", "Partly right", "Right"];
const RUBRIC = {
  key: KEY,
  name: "Triage check",
  version: 1,
  dimensions: [
    { key: "kind", name: "Kind of answer", scope: "first_answer", scale: { kind: "nominal", levels: [{ value: "advice", label: "Advice" }, { value: "referral", label: "Referral" }] }, escalation: { rule: "never" } },
    { key: "accuracy", name: "Accuracy", scope: "each_answer", scale: { kind: "ordinal", allowNA: true, levels: LEVELS.map((label, i) => ({ value: i + 1, label })) }, escalation: { rule: "never" } },
  ],
  totals: [],
};
const MODEL = "Model-Triage";
const question = (q: number) => `Question ${q}: a patient with chest pain number ${q} asks whether to wait for the clinic.`;
const answer = (q: number) => `Answer for case ${q}: go to the emergency department now if the pain lasts.`;
const row = (q: number) => ({ item_id: `TRI-${q}`, specialty: "Emergency", question: question(q), reference_answer: "", model: MODEL, repetition: 1, response: answer(q) });
const CALIBRATION = [1, 2, 3];
const GOLD = 4;
const RATIONALE = "Partly right: it does not say to call an ambulance.";

async function makeStudy(page: Page, name: string, items: number[], graders: number, stamp: string) {
  const created = await page.request.post("/api/v1/studies", { data: { name, rubrics: [RUBRIC], repetitions: 1, gradersPerSet: 1 } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect((await page.request.post(`/api/v1/studies/${id}/import`, { data: items.map(row) })).status()).toBe(200);
  const accounts: { email: string; password: string; name: string }[] = [];
  for (let i = 1; i <= graders; i++) {
    const email = `${name.split(" ")[0].toLowerCase()}-${stamp}-${i}@hospital.example`;
    const added = await page.request.post(`/api/v1/studies/${id}/graders`, { data: { email, name: `Dr. ${name.split(" ")[0]} ${i}` } });
    expect(added.status(), await added.text()).toBe(201);
    accounts.push({ email, name: `Dr. ${name.split(" ")[0]} ${i}`, password: ((await added.json()) as { initialPassword: string }).initialPassword });
  }
  expect((await page.request.patch(`/api/v1/studies/${id}`, { data: { status: "OPEN" } })).status()).toBe(200);
  return { id, graders: accounts };
}

async function graderPage(browser: Browser, who: { email: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, who);
  return page;
}

/** Scores the open grading page: the nominal item "Advice", accuracy at the given level. */
async function grade(page: Page, id: string, level: string) {
  await page.goto(`/grade/${id}`);
  await gradingFormShown(page);
  await page.locator(`fieldset[data-cell="${KEY}/kind/1"] label.level-option`).filter({ hasText: "Advice" }).click();
  const option = page.locator(`fieldset[data-cell="${KEY}/accuracy/1"] label.level-option`).filter({ has: page.locator(".level-label", { hasText: new RegExp(`^${level}$`) }) });
  await option.click();
  await expect(option.locator('input[type="radio"]')).toBeChecked();
  const here = new URL(page.url()).pathname;
  await page.getByRole("button", { name: "Submit grades" }).first().click();
  await page.waitForURL((url) => url.pathname !== here);
}

const openIds = async (page: Page) =>
  ((await (await page.request.get("/api/v1/me/assignments")).json()) as { assignments: { id: string; status: string }[] }).assignments.filter((a) => a.status !== "SUBMITTED").map((a) => a.id);

/**
 * What the page shows a grader, without the set's own words: its test ids, roles, headings, labels and
 * text, with the question and answer replaced and numbers blanked. Equal for a gold set and a real one.
 */
async function signature(page: Page, root: string, q: number) {
  return page.evaluate(
    ({ root, words }) => {
      const strip = (t: string) => words.reduce((s, w) => s.split(w).join("«text»"), t).replace(/\d+/g, "#").replace(/\s+/g, " ").trim();
      const el = document.querySelector(root)!;
      const items = Array.from(el.querySelectorAll("*")).map((e) =>
        [e.tagName, e.getAttribute("data-testid") ?? "", e.getAttribute("role") ?? "", strip(e.getAttribute("aria-label") ?? ""), /^H[1-6]$/.test(e.tagName) ? strip(e.textContent ?? "") : ""].join("|"),
      );
      return { items: [...new Set(items)].sort(), text: strip((el as HTMLElement).innerText) };
    },
    { root, words: [question(q), answer(q), `TRI-${q}`, ...question(q).split("\n")] },
  );
}

test("a lead marks calibration and gold sets, a grader calibrates and meets gold unawares, the lead reads the accuracy", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await db.connect();
  try {
    await signIn(page, demo.lead);
    // A pilot that graded the gold question's answer "Right".
    const pilot = await makeStudy(page, `Pilot triage ${stamp}`, [GOLD], 1, stamp);
    expect((await page.request.post(`/api/v1/studies/${pilot.id}/assignments`, { data: { seed: "pilot" } })).status()).toBe(200);
    const pp = await graderPage(browser, pilot.graders[0]);
    const [pilotTask] = await openIds(pp);
    const scores = [
      { rubric: KEY, dimension: "kind", repetition: 1, score: "advice" },
      { rubric: KEY, dimension: "accuracy", repetition: 1, score: 3 },
    ];
    expect((await pp.request.put(`/api/v1/assignments/${pilotTask}/grades`, { data: { scores, submit: true } })).status()).toBe(200);
    await pp.context().close();

    const study = await makeStudy(page, `Triage ${stamp}`, [1, 2, 3, 4, 5, 6, 7, 8], 2, stamp);
    const setOf = async (q: number) =>
      (await db.query<{ id: string }>(`SELECT rs.id FROM "ResponseSet" rs JOIN "QaItem" i ON i.id = rs."itemId" WHERE rs."studyId" = $1 AND i."externalId" = $2`, [study.id, `TRI-${q}`])).rows[0].id;

    // The lead opens the Graders' quality page and the list of sets that can be marked.
    await page.goto(`/studies/${study.id}/quality`);
    await page.getByRole("link", { name: "Mark calibration and gold sets" }).click();
    await expect(page).toHaveURL(new RegExp(`/studies/${study.id}/quality/sets$`));
    await expect(page.getByText("No set marked yet.")).toBeVisible();
    const candidates = page.getByRole("table", { name: "Sets nobody was given" });
    await expect(candidates.getByRole("row")).toHaveCount(9);
    await axeClean(page, "sets list");

    for (const q of CALIBRATION) {
      await page.goto(`/studies/${study.id}/quality/sets`);
      await page.getByRole("link", { name: `Mark TRI-${q}, ${MODEL}` }).click();
      await expect(page.getByRole("heading", { name: `Question TRI-${q}, ${MODEL}` })).toBeVisible();
      await expect(page.getByText(answer(q))).toBeVisible();
      // Driven by the rubric document: one cell per ordinal dimension and answer, none for the nominal item.
      await expect(page.locator("[data-cell]")).toHaveCount(1);
      await expect(page.getByLabel("Accuracy, answer 1")).toBeVisible();
      await page.getByLabel("Calibration: graded before real work", { exact: false }).check();
      await page.getByLabel("Accuracy, answer 1").selectOption("2");
      if (q === 1) {
        // An empty tolerance is refused by the API, named at its field.
        await page.getByLabel("Tolerance (scale points)").fill("");
        await page.getByRole("button", { name: "Save as a calibration set" }).click();
        await expect(page.locator("#tolerance-error")).toBeVisible();
        await expect(page.getByLabel("Tolerance (scale points)")).toHaveAttribute("aria-invalid", "true");
        await axeClean(page, "mark form with errors");
      }
      await page.getByLabel("Tolerance (scale points)").fill("0");
      await page.getByRole("textbox", { name: "Rationale" }).fill(RATIONALE);
      await page.getByRole("button", { name: "Save as a calibration set" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Marked as a calibration set with 1 expected score." })).toBeVisible();
    }

    // The gold set: its expected score filled from the pilot.
    await page.goto(`/studies/${study.id}/quality/sets/${await setOf(GOLD)}`);
    await page.getByLabel("Gold: slipped into graders' queues", { exact: false }).check();
    await page.getByLabel("Fill the expected scores from a pilot study").selectOption({ label: `Pilot triage ${stamp}` });
    await page.getByRole("button", { name: "Fill from pilot" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Filled 1 score from the pilot." })).toBeVisible();
    await expect(page.getByLabel("Accuracy, answer 1")).toHaveValue("3");
    await expect(page.getByText("rounded to the nearest level (half-way: the higher)")).toBeVisible();
    await axeClean(page, "mark form filled from a pilot");
    await page.getByRole("textbox", { name: "Rationale" }).fill("The pilot's panel agreed it is right.");
    await page.getByRole("button", { name: "Save as a gold set" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Marked as a gold set with 1 expected score." })).toBeVisible();

    await page.goto(`/studies/${study.id}/quality/sets`);
    const marked = page.getByRole("table", { name: "Marked calibration and gold sets" });
    await expect(marked.getByRole("row")).toHaveCount(5);
    await expect(marked.getByRole("row").filter({ hasText: "TRI-4" })).toContainText("Gold");
    await expect(candidates.getByRole("row")).toHaveCount(5);
    await axeClean(page, "sets list with marks");

    // Real work is dealt; a set already given cannot be marked (the 409, on the form).
    expect((await page.request.post(`/api/v1/studies/${study.id}/assignments`, { data: { seed: "triage" } })).status()).toBe(200);
    await page.goto(`/studies/${study.id}/quality/sets/${await setOf(5)}`);
    await expect(page.getByText("This set is already assigned as real work")).toBeVisible();
    await page.getByLabel("Accuracy, answer 1").selectOption("1");
    await page.getByRole("button", { name: "Save as a calibration set" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "already assigned as real work: only a set nobody was given" })).toBeVisible();

    // Quality settings: gold at one in two, calibration required (all of a one-set round right).
    await page.goto(`/studies/${study.id}/quality`);
    const settings = page.getByRole("form", { name: "Quality settings" });
    await expect(settings).toContainText("3 calibration sets and 1 gold set marked.");
    await settings.getByLabel("Place gold sets in graders' queues").check();
    await settings.getByLabel("One gold set in every … sets").fill("2");
    await settings.getByLabel("Graders pass calibration before real work").check();
    await settings.getByLabel("Pass mark (% of scores within tolerance)").fill("100");
    await settings.getByLabel("Sets per calibration round").fill("1");
    await settings.getByRole("button", { name: "Save quality settings" }).click();
    await expect(settings.getByRole("status")).toHaveText("Saved. Placed 2 gold tasks in graders' queues and started 2 calibration rounds.");
    await expect(settings.getByLabel("Gold seed")).not.toHaveValue("");
    await axeClean(page, "quality page with settings saved");
    const stored = (await db.query(`SELECT "goldRate", "calibrationRequired", "calibrationPassShare", "calibrationRoundSize" FROM "Study" WHERE id = $1`, [study.id])).rows[0];
    expect(stored).toEqual({ goldRate: 2, calibrationRequired: true, calibrationPassShare: 1, calibrationRoundSize: 1 });

    // The grader: one calibration set, graded one level off; the feedback names the expected score and why.
    const gp = await graderPage(browser, study.graders[0]);
    let open = await openIds(gp);
    expect(open).toHaveLength(1);
    await grade(gp, open[0], "Right");
    await gp.goto("/calibration");
    await expect(gp.getByRole("heading", { name: "Round 1: 0% within tolerance, not passed: a new round is in your queue" })).toBeVisible();
    const feedback = gp.getByRole("table", { name: /Calibration set 1/ }).first();
    await expect(feedback.getByRole("row").nth(1)).toHaveText(/Accuracy\s*Answer 1\s*3\s*2\s*no/);
    await expect(gp.getByText(`Why: ${RATIONALE}`)).toBeVisible();
    await axeClean(gp, "calibration feedback, failed");

    // A new round: right this time, passed.
    open = await openIds(gp);
    expect(open).toHaveLength(1);
    await grade(gp, open[0], "Partly right");
    await gp.goto("/calibration");
    await expect(gp.getByRole("heading", { name: /: passed$/ })).toBeVisible();
    await expect(gp.getByRole("heading", { name: "Round 2: 100% within tolerance, passed" })).toBeVisible();
    await axeClean(gp, "calibration feedback, passed");

    // Real work and the gold set: the same queue row and the same grading page, whatever the set.
    const graderId = (await db.query<{ id: string }>(`SELECT id FROM "User" WHERE email = $1`, [study.graders[0].email])).rows[0].id;
    const goldTask = (await db.query<{ id: string }>(`SELECT id FROM "QualityTask" WHERE "graderId" = $1 AND purpose = 'GOLD'`, [graderId])).rows[0].id;
    const real = (await db.query<{ id: string; q: string }>(
      `SELECT a.id, i."externalId" AS q FROM "Assignment" a JOIN "ResponseSet" rs ON rs.id = a."responseSetId" JOIN "QaItem" i ON i.id = rs."itemId" WHERE a."graderId" = $1 ORDER BY a.position LIMIT 1`,
      [graderId],
    )).rows[0];
    const realQ = Number(real.q.split("-")[1]);
    open = await openIds(gp);
    expect(open).toContain(goldTask);
    expect(open).toContain(real.id);
    await gp.goto("/queue");
    const queueRow = (id: string) => `tr:has(a[href="/grade/${id}"])`;
    await expect(gp.locator(queueRow(goldTask))).toBeVisible();
    expect(await signature(gp, queueRow(goldTask), GOLD)).toEqual(await signature(gp, queueRow(real.id), realQ));
    await gp.goto(`/grade/${goldTask}`);
    await gradingFormShown(gp);
    const goldPage = await signature(gp, "main", GOLD);
    await gp.goto(`/grade/${real.id}`);
    await gradingFormShown(gp);
    expect(await signature(gp, "main", realQ)).toEqual(goldPage);
    expect(goldPage.text).not.toMatch(/gold|calibration|expected/i);
    // The grader gives the gold set the pilot's score, and grades the real work.
    for (const id of await openIds(gp)) await grade(gp, id, id === goldTask ? "Right" : "Partly right");
    expect(await openIds(gp)).toEqual([]);
    await gp.context().close();

    // The lead: gold accuracy 100% on one cell for the grader; then excludes them.
    await page.goto(`/studies/${study.id}/quality`);
    const tasks = page.getByRole("table", { name: "Gold accuracy, intra-rater reliability and calibration per grader" });
    const mine = tasks.getByRole("row").filter({ hasText: study.graders[0].name });
    await expect(mine).toContainText("100%");
    await expect(mine).toContainText("n=1");
    await expect(mine).toContainText("passed");
    await expect(mine).toContainText("1 failed");
    const signals = page.getByRole("table", { name: "Graders' quality signals" });
    const r = signals.getByRole("row").filter({ hasText: study.graders[0].name });
    await r.getByRole("button", { name: `Exclude ${study.graders[0].name} from the analysis` }).click();
    await r.getByLabel(`Why exclude ${study.graders[0].name}?`).fill("Calibrated late");
    await r.getByRole("button", { name: "Confirm exclusion" }).click();
    await expect(r.getByRole("button", { name: `Include ${study.graders[0].name} in the analysis again` })).toBeVisible();
    await axeClean(page, "quality page after an exclusion");
    const audit = await db.query<{ action: string }>(`SELECT action FROM "AuditEvent" WHERE "studyId" = $1 AND action LIKE 'quality.%' ORDER BY id`, [study.id]);
    expect(audit.rows.map((x) => x.action)).toEqual(["quality.set.mark", "quality.set.mark", "quality.set.mark", "quality.set.mark", "quality.settings", "quality.task.submit", "quality.calibration.fail", "quality.task.submit", "quality.calibration.pass", "quality.task.submit"]);
  } finally {
    await db.end();
  }
});
