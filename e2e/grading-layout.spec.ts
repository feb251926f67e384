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

/** How many times each distinct answer text is in the page (hidden or not), the reference answer left out. */
async function answerRenders(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const counts = new Map<string, number>();
    for (const el of Array.from(document.querySelectorAll(".answer-prose"))) {
      if (el.closest("details")) continue;
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
