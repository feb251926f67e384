import { writeFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { adminCli, demo, e2eDatabaseUrl, gradingFormShown, signIn } from "./fixtures";

/**
 * The grading page's layout (issue 21, item 6), measured on the seeded demo
 * (both rubrics, N = 3): each answer's text is rendered once, readable in full
 * (no answer box scrolls inside the page), the question and the progress stay
 * in view, and on a phone one answer shows at a time behind keyboard-operable
 * tabs. The page height at each size is written to the test's output
 * (layout.json) and bounded here; bench/README.md has the figures.
 */

/** How many times each distinct answer text is in the page (hidden or not), the reference answer and the question left out. */
async function answerRenders(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const counts = new Map<string, number>();
    for (const el of Array.from(document.querySelectorAll(".answer-prose"))) {
      if (el.closest("details") || el.classList.contains("question-prose")) continue;
      const text = (el.textContent ?? "").trim();
      counts.set(text, (counts.get(text) ?? 0) + 1);
    }
    return [...counts.values()];
  });
}

/** Answer bodies shorter than their text (a box that scrolls inside the page). */
const scrollingAnswers = (page: Page) =>
  page.evaluate(() => Array.from(document.querySelectorAll("article .answer-prose")).filter((el) => el.parentElement!.scrollHeight > el.parentElement!.clientHeight + 1).length);

const SIZES = [
  { name: "desktop", width: 1280, height: 800, maxHeight: 5200 },
  { name: "phone", width: 390, height: 844, maxHeight: 6000 },
] as const;

/** The open demo study's graders get their sets (as grading.spec.ts does) unless they have them already. */
async function ensureAssigned(db: pg.Client, request: import("@playwright/test").APIRequestContext) {
  const { rows } = await db.query(`SELECT 1 FROM "Assignment" a JOIN "Study" s ON s.id = a."studyId" WHERE s.slug = 'demo-clinical-qa' LIMIT 1`);
  if (rows.length) return;
  const cli = await adminCli(["create-token", "--email", demo.lead.email]);
  expect(cli.code, cli.stderr).toBe(0);
  const headers = { authorization: `Bearer ${cli.stdout.trim().split("\n").pop()!}` };
  const study = (await db.query<{ id: string }>(`SELECT id FROM "Study" WHERE slug = 'demo-clinical-qa'`)).rows[0];
  const run = await request.post(`/api/v1/studies/${study.id}/assignments`, { headers, data: { seed: "e2e-grading" } });
  expect(run.status(), await run.text()).toBe(200);
}

/** The demo grader's first set of the open study (assigned first if need be). */
async function firstSetOfDemoGrader(request: import("@playwright/test").APIRequestContext): Promise<string> {
  const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await db.connect();
  try {
    await ensureAssigned(db, request);
    const rows = await db.query<{ id: string }>(
      `SELECT a.id FROM "Assignment" a JOIN "User" u ON u.id = a."graderId" JOIN "Study" s ON s.id = a."studyId"
       WHERE u.email = $1 AND s.slug = 'demo-clinical-qa' ORDER BY a.position LIMIT 1`,
      [demo.graders[0].email],
    );
    expect(rows.rows).toHaveLength(1);
    return rows.rows[0].id;
  } finally {
    await db.end();
  }
}

test("each answer renders once, in full, beside its scores; the question stays in view; a phone shows one answer at a time", async ({ page, request }) => {
  test.setTimeout(120_000);
  const id = await firstSetOfDemoGrader(request);
  await signIn(page, demo.graders[0]);
  const out: Record<string, unknown> = {};
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto(`/grade/${id}`);
    await gradingFormShown(page);
    await page.waitForLoadState("networkidle");
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    const renders = await answerRenders(page);
    const scrolling = await scrollingAnswers(page);
    out[size.name] = { height, renders, scrolling };
    await page.screenshot({ path: test.info().outputPath(`grading-${size.name}.png`), fullPage: true });
    expect(renders, `${size.name}: each answer's text once`).toEqual([1, 1, 1]);
    expect(scrolling, `${size.name}: no answer scrolls inside the page`).toBe(0);
    expect(height, `${size.name}: page height`).toBeLessThan(size.maxHeight);

    // Far down the page, the question and the set's progress are still on screen.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(page.getByTestId("sticky-question")).toBeInViewport();
    await expect(page.getByText(/^Set \d+ of \d+$/).first()).toBeInViewport();
  }

  // Phone: one answer at a time; the tabs work with the keyboard (arrows move between them).
  const tabs = page.getByRole("tablist", { name: "Answers" });
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(tabs).toBeVisible();
  const visibleAnswers = () => page.locator("article").filter({ has: page.locator(".answer-prose") }).and(page.locator(":visible")).count();
  await expect.poll(visibleAnswers).toBe(1);
  await tabs.getByRole("tab", { name: "Answer 1" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(tabs.getByRole("tab", { name: "Answer 2" })).toBeFocused();
  await expect(tabs.getByRole("tab", { name: "Answer 2" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("heading", { name: "Answer 2", exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Answer 1", exact: true })).toBeHidden();
  await expect.poll(visibleAnswers).toBe(1);
  // The answer's own fields are in its panel, visible and reached by Tab (nothing is typed: grading.spec.ts grades this set).
  await expect(page.locator('input[name="SAFE_LLM/accuracy/2"]').first()).toBeVisible();
  await expect(page.locator('input[name="SAFE_LLM/accuracy/1"]').first()).toBeHidden();
  for (let i = 0; i < 10 && !(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name === "SAFE_LLM/accuracy/2")); i++) await page.keyboard.press("Tab");
  expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe("SAFE_LLM/accuracy/2");

  // Desktop: every answer visible at once, no tabs.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(tabs).toBeHidden();
  await expect.poll(visibleAnswers).toBe(3);
  writeFileSync(test.info().outputPath("layout.json"), JSON.stringify(out, null, 1));
  console.log("grading layout:", JSON.stringify(out));
});

test("the question does not move when the form replaces the frame of a full load", async ({ page, browser, request }) => {
  const id = await firstSetOfDemoGrader(request);
  await signIn(page, demo.graders[0]);
  // Without JavaScript the page stays at its frame: that is what a full load shows first.
  const frameOnly = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  try {
    const framePage = await frameOnly.newPage();
    const questionTop = (p: Page) => p.getByRole("heading", { level: 1 }).evaluate((h) => h.getBoundingClientRect().top + window.scrollY);
    for (const size of SIZES) {
      await framePage.setViewportSize({ width: size.width, height: size.height });
      await framePage.goto(`/grade/${id}`);
      await expect(framePage.getByText("Loading the grading form…")).toBeVisible();
      const inFrame = await questionTop(framePage);
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto(`/grade/${id}`);
      await gradingFormShown(page);
      const inForm = await questionTop(page);
      expect(Math.abs(inForm - inFrame), `${size.name}: the question at ${inFrame}px in the frame, ${inForm}px in the form`).toBeLessThanOrEqual(1);
      // The frame's toolbar shows where the grader is, and offers nothing that does not work yet.
      await expect(framePage.getByText(/^Set \d+ of \d+$/)).toBeVisible();
      await expect(framePage.getByRole("main").getByRole("button")).toHaveCount(0);
    }
  } finally {
    await frameOnly.close();
  }
});

test("a reload keeps the grader where they were on the page, in the answer they had open, once the form is back", async ({ page, request }) => {
  const id = await firstSetOfDemoGrader(request);
  await signIn(page, demo.graders[0]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/grade/${id}`);
  await gradingFormShown(page);
  const target = await page.evaluate(() => Math.round(document.documentElement.scrollHeight / 2));
  await page.evaluate((y) => window.scrollTo(0, y), target);
  await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(target);
  await page.reload();
  await gradingFormShown(page);
  await page.waitForLoadState("load");
  await expect.poll(() => page.evaluate(() => Math.round(window.scrollY)), { message: `back at ${target}px after the reload` }).toBe(target);
  // A new visit of the same set (not a reload) starts at the top.
  await page.goto(`/queue`);
  await page.goto(`/grade/${id}`);
  await gradingFormShown(page);
  await page.waitForLoadState("load");
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  // On a phone one answer shows at a time: the reload opens the answer the place is in.
  await page.setViewportSize({ width: 390, height: 844 });
  const tabs = page.getByRole("tablist", { name: "Answers" });
  await tabs.getByRole("tab", { name: "Answer 3" }).click();
  await expect(page.getByRole("heading", { name: "Answer 3", exact: true })).toBeVisible();
  const inAnswer3 = await page.locator('input[name="SAFE_LLM/accuracy/3"]').first().evaluate((el) => Math.round(el.getBoundingClientRect().top + window.scrollY - 200));
  await page.evaluate((y) => window.scrollTo(0, y), inAnswer3);
  await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(inAnswer3);
  await page.reload();
  await gradingFormShown(page);
  await page.waitForLoadState("load");
  await expect(tabs.getByRole("tab", { name: "Answer 3" })).toHaveAttribute("aria-selected", "true");
  await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(inAnswer3);
  // Answer 3's field is where it was on the screen (its radios are visually hidden: their box is measured).
  const top = await page.locator('input[name="SAFE_LLM/accuracy/3"]').first().evaluate((el) => Math.round(el.getBoundingClientRect().top));
  expect(Math.abs(top - 200), `Answer 3's first field at ${top}px from the top of the screen`).toBeLessThanOrEqual(1);
});

/**
 * Issue 31, item 8: a study with its own instrument, long instructions (a
 * long unbroken word and a long address in them) and questions with a long
 * EHR context, line breaks and Markdown, graded by a grader on a phone.
 */
const LONG_WORD = "Antidisestablishmentarianism".repeat(4);
const LONG_URL = "https://guidelines.example.org/oncology/patient-portal-messages/replies/assessment-instructions/version-2024-11/full-text.html?section=acceptability&lang=en";
const SURVEY = {
  key: "portal_survey",
  name: "Portal reply survey",
  version: 1,
  instructions: `Read the patient's message and the reply.\nRate the reply as sent. ${LONG_WORD} See ${LONG_URL} for the full instructions.`,
  source: `Adapted from the study protocol, ${LONG_URL}`,
  dimensions: [
    {
      key: "acceptability",
      name: "Acceptability",
      scope: "first_answer",
      scale: { kind: "ordinal", levels: [{ value: 1, label: "Unacceptable" }, { value: 2, label: "Acceptable with edits" }, { value: 3, label: "Acceptable as is" }] },
    },
    { key: "written_by", name: "Written by", scope: "first_answer", scale: { kind: "nominal", levels: [{ value: "ai", label: "AI" }, { value: "human", label: "A clinician" }] } },
  ],
  totals: [],
};
const EHR = Array.from({ length: 12 }, (_, i) => `Day ${i + 1}: capecitabine 1000 mg/m2 twice daily, ANC 1.${i}, no fever.`).join("\n");
const portalQuestion = (ask: string) => `**EHR extract**\n${EHR}\n\n${ask}`;
const ASKS = ["Can I take *ibuprofen* for the pain in my hands?", `Should I stop the tablets before my trip next week? A forum said so: ${LONG_URL}`];

/** A lead's open study of the survey, two questions x two sources, one grader (k = 1); returns the grader. */
async function portalStudy(page: Page) {
  await signIn(page, demo.lead);
  const stamp = Date.now();
  const created = await page.request.post("/api/v1/studies", { data: { name: `Portal replies ${stamp}`, rubrics: [SURVEY], repetitions: 1, gradersPerSet: 1 } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const cell = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const rows = ["item_id,specialty,question,reference_answer,preview,model,repetition,response"];
  for (const [i, ask] of ASKS.entries()) {
    for (const source of ["source-one", "source-two"]) {
      rows.push(`P${i + 1},Hematology and Medical Oncology,${cell(portalQuestion(ask))},,${i === 0 ? "Ibuprofen for hand pain" : ""},${source},1,${cell(`Reply ${i + 1} from the team.`)}`);
    }
  }
  const imported = await page.request.post(`/api/v1/studies/${id}/import`, { headers: { "content-type": "text/csv" }, data: rows.join("\n") });
  expect(imported.status(), await imported.text()).toBe(200);
  const added = await page.request.post(`/api/v1/studies/${id}/graders`, { data: { email: `portal-${stamp}@hospital.example`, name: "Dr. Portal Grader With A Rather Long Name" } });
  expect(added.status(), await added.text()).toBe(201);
  const { initialPassword } = (await added.json()) as { initialPassword: string };
  expect((await page.request.patch(`/api/v1/studies/${id}`, { data: { status: "OPEN" } })).status()).toBe(200);
  const assigned = await page.request.post(`/api/v1/studies/${id}/assignments`, { data: { seed: "portal" } });
  expect(assigned.status(), await assigned.text()).toBe(200);
  return { email: `portal-${stamp}@hospital.example`, password: initialPassword };
}

/** Fails with the widest elements when the page is wider than the screen. */
async function expectNoSidewaysScroll(page: Page, label: string) {
  const m = await page.evaluate(() => {
    const wide = Array.from(document.querySelectorAll("body *"))
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(-3)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.getAttribute("class") ?? "").slice(0, 60)}`);
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, wide };
  });
  expect(m.scrollWidth, `${label}: ${m.scrollWidth}px wide on a ${m.innerWidth}px screen (${m.wide.join(" | ")})`).toBeLessThanOrEqual(m.innerWidth);
}

/** Every status badge of the queue lies within the screen's width, and the table does not scroll sideways. */
async function expectStatusesInView(page: Page, count: number) {
  const m = await page.getByRole("table", { name: "My assignments" }).evaluate((table) => {
    const region = table.parentElement!;
    const cells = Array.from(table.querySelectorAll("tbody tr td:last-child"));
    return { rights: cells.map((c) => Math.round(c.getBoundingClientRect().right)), innerWidth: window.innerWidth, overflow: region.scrollWidth - region.clientWidth };
  });
  expect(m.rights).toHaveLength(count);
  for (const r of m.rights) expect(r, `a status cell ends at ${r}px on a ${m.innerWidth}px screen`).toBeLessThanOrEqual(m.innerWidth);
  expect(m.overflow, "the table scrolls sideways").toBeLessThanOrEqual(0);
}

test("on a phone every grader page fits the screen, the queue shows each set's status and preview, and no key is offered to press", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const grader = await portalStudy(page);
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  try {
    const p = await phone.newPage();
    await signIn(p, grader);
    expect(await p.evaluate(() => matchMedia("(pointer: coarse)").matches)).toBe(true);
    await p.goto("/queue");
    const table = p.getByRole("table", { name: "My assignments" });
    await expect(table).toBeVisible();
    await expectNoSidewaysScroll(p, "queue");
    // The status of each set is on the screen, not behind a sideways scroll of the table.
    const statuses = table.getByText("To do", { exact: true });
    await expect(statuses).toHaveCount(4);
    await expectStatusesInView(p, 4);
    // The queue previews the lead's chosen part of the question, else its last paragraph: never the shared first line.
    const previews = await table.getByTestId("queue-preview").allInnerTexts();
    expect(previews.sort()).toEqual(["Ibuprofen for hand pain", "Ibuprofen for hand pain", `Should I stop the tablets before my trip next week? A forum said so: ${LONG_URL}`, `Should I stop the tablets before my trip next week? A forum said so: ${LONG_URL}`]);
    // No "press N" on a touch screen.
    await expect(p.getByTestId("queue-next")).toBeVisible();
    for (const hint of await p.getByTestId("press-hint").all()) await expect(hint).toBeHidden();

    await p.getByTestId("queue-next").click();
    await expect(p).toHaveURL(/\/grade\//);
    await gradingFormShown(p);
    await expect(p.locator("section[data-rubric]")).toContainText(LONG_WORD.slice(0, 20));
    await expectNoSidewaysScroll(p, "grading form");
    for (const hint of await p.getByTestId("press-hint").all()) await expect(hint).toBeHidden();
    // Its context folds away, and the page still fits.
    await p.getByTestId("question-context").locator("summary").click();
    await expect(p.getByTestId("question-context")).not.toHaveAttribute("open");
    await expectNoSidewaysScroll(p, "grading form, context folded");

    // Graded and submitted: the next set, then the same set read again (revise mode), then the queue.
    const here = p.url();
    await p.locator('fieldset[data-cell="portal_survey/acceptability/1"] label').filter({ hasText: "Unacceptable" }).click();
    await p.locator('fieldset[data-cell="portal_survey/written_by/1"] label').filter({ hasText: "AI" }).click();
    // Each level's label is on the screen beside its number (a dimension without a definition once squeezed them out).
    for (const label of ["Unacceptable", "Acceptable as is", "A clinician"]) {
      const box = (await p.locator(".level-option").filter({ hasText: label }).first().boundingBox())!;
      expect(box.width, `the level "${label}"`).toBeGreaterThan(200);
    }
    await p.getByRole("button", { name: "Submit grades" }).last().click();
    await p.waitForURL((url) => url.href !== here);
    await gradingFormShown(p);
    await expectNoSidewaysScroll(p, "next grading form");
    await p.goto(here);
    await gradingFormShown(p);
    await expectNoSidewaysScroll(p, "submitted set");
    await p.goto("/queue?status=submitted");
    await expect(table.getByText("Submitted", { exact: true })).toBeVisible();
    await expectStatusesInView(p, 1);
    await expectNoSidewaysScroll(p, "queue, submitted");
  } finally {
    await phone.close();
  }
});

test("the question reads like the answers: line breaks, Markdown, body-size type, a long context that folds", async ({ page, browser }) => {
  const grader = await portalStudy(page);
  const desk = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const p = await desk.newPage();
    await signIn(p, grader);
    await p.goto("/queue");
    // With a keyboard, the hints are there.
    await expect(p.getByTestId("press-hint")).toBeVisible();
    await p.getByTestId("queue-next").click();
    await gradingFormShown(p);
    const body = p.getByTestId("question-body");
    // One h1, the panel's label: the question is text, not a heading.
    await expect(p.getByRole("heading", { level: 1 })).toHaveText("Question");
    const context = p.getByTestId("question-context");
    await expect(context).toHaveAttribute("open");
    await expect(context.locator("summary")).toContainText(/Context \(\d+ words\)/);
    // Line breaks kept: the bold title and the EHR's twelve lines are thirteen lines.
    const ehr = context.locator("p").filter({ hasText: "Day 1:" });
    expect((await ehr.innerText()).split("\n")).toHaveLength(13);
    const lineHeight = await ehr.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect(Math.round((await ehr.boundingBox())!.height / lineHeight)).toBeGreaterThanOrEqual(13);
    // Markdown: bold and italics render as such, at the answers' body size, never as a bold heading.
    await expect(context.locator("strong")).toHaveText("EHR extract");
    const ask = body.locator(".question-prose").last();
    await expect(ask).toContainText(/Can I take ibuprofen|Should I stop the tablets/);
    if ((await ask.innerText()).includes("ibuprofen")) await expect(ask.locator("em")).toHaveText("ibuprofen");
    const size = (el: import("@playwright/test").Locator) => el.evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    const answerSize = await size(p.locator("article .answer-prose").first());
    expect(await size(ehr)).toBe(answerSize);
    expect(await ehr.evaluate((e) => Number(getComputedStyle(e).fontWeight))).toBeLessThan(600);
    // Folded, the question itself stays in view.
    await context.locator("summary").click();
    await expect(ehr).toBeHidden();
    await expect(ask).toBeVisible();
  } finally {
    await desk.close();
  }
});
