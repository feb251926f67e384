import { expect, test, type Browser, type Page } from "@playwright/test";
import { demo, signIn } from "./fixtures";
import { axe } from "./own-instrument-study";
import { addGraders, importAnswers, openStudy } from "./study-setup";

/**
 * Issue 34 in Chromium: a lead creates a pairwise study from the preference template of three
 * axes through the pages, imports 3 questions x 2 models, adds three graders and assigns (every
 * comparison to k = 2 graders). Grader 1 on a desk prefers answer A on every axis, grader 2 on a
 * phone (answers behind tabs) answer B, both with the keyboard (1 / 2 / 3); where they met, they
 * disagree and the third grader, who says "about the same", settles it. The dashboard then shows
 * the forest plot; axe finds no serious violation on the comparison page and the dashboard.
 */

const TEMPLATE = "clever_preference";
const MODELS = ["Model-Alpha", "Model-Beta"];
const QUESTIONS = 3;

function answersCsv(): string {
  const rows = ["item_id,specialty,question,reference_answer,model,repetition,response"];
  for (let q = 1; q <= QUESTIONS; q++)
    for (const [m, model] of MODELS.entries()) rows.push([`PW-${q}`, "Medication", `"Question ${q}: can I take ibuprofen with my blood thinner?"`, "", model, 1, `"Answer ${m + 1} to question ${q}.${" More detail.".repeat(m * 3)}"`].join(","));
  return rows.join("\n") + "\n";
}

type Grader = { email: string; password: string };

/** Compares every comparison in the grader's queue with `key` on every axis, pressed on the axis's first option. */
async function compareAll(browser: Browser, grader: Grader, key: "1" | "2" | "3", phone: boolean, found: string[]): Promise<number> {
  const context = await browser.newContext(phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  let done = 0;
  try {
    await signIn(page, grader);
    await page.goto("/queue");
    const queue = page.getByTestId("comparison-queue");
    await expect(queue).toBeVisible();
    for (;;) {
      await page.goto("/queue");
      const links = page.getByTestId("comparison-queue").locator('a[href^="/grade/comparisons/"]');
      const hrefs = await links.evaluateAll((els) => els.map((e) => e.getAttribute("href")));
      const open = [];
      for (const h of hrefs) {
        const res = await page.request.get(`/api/v1/comparison-assignments/${h!.split("/").pop()}`);
        if (res.ok() && (await res.json()).status !== "SUBMITTED") open.push(h!);
      }
      if (open.length === 0) break;
      await page.goto(open[0]);
      await comparePage(page, key, phone, found, done === 0);
      done += 1;
    }
  } finally {
    await context.close();
  }
  return done;
}

async function comparePage(page: Page, key: "1" | "2" | "3", phone: boolean, found: string[], first: boolean) {
  const form = page.locator("form").filter({ has: page.getByRole("radiogroup") });
  await expect(form).toBeVisible();
  // Blinding: no model name anywhere on the page.
  for (const m of MODELS) await expect(page.locator("body")).not.toContainText(m);
  if (phone) {
    // Stacked behind tabs: one answer at a time.
    const tabs = page.getByRole("tablist", { name: "Answers" });
    await expect(tabs).toBeVisible();
    await expect(page.getByRole("tabpanel", { name: "Answer A" })).toBeVisible();
    await expect(page.getByRole("tabpanel", { name: "Answer B" })).toBeHidden();
    await expect(tabs.getByRole("tab", { name: "Answer A" })).toHaveAttribute("aria-selected", "true");
    await expect(tabs.getByRole("tab", { name: "Answer A" })).toHaveAttribute("aria-controls", "answer-a");
    await tabs.getByRole("tab", { name: "Answer B" }).click();
    await expect(tabs.getByRole("tab", { name: "Answer B" })).toHaveAttribute("aria-selected", "true");
    await expect(tabs.getByRole("tab", { name: "Answer A" })).toHaveAttribute("aria-selected", "false");
    await expect(page.getByRole("tabpanel", { name: "Answer B" })).toBeVisible();
    await expect(page.getByRole("tabpanel", { name: "Answer A" })).toBeHidden();
    // The arrow keys move between the tabs, and only the selected one is a tab stop.
    await page.keyboard.press("ArrowLeft");
    await expect(tabs.getByRole("tab", { name: "Answer A" })).toBeFocused();
    await expect(page.getByRole("tabpanel", { name: "Answer A" })).toBeVisible();
    await expect(tabs.getByRole("tab", { name: "Answer B" })).toHaveAttribute("tabindex", "-1");
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tabpanel", { name: "Answer B" })).toBeVisible();
  } else {
    await expect(page.getByRole("tablist", { name: "Answers" })).toBeHidden();
    await expect(page.getByRole("tabpanel", { name: "Answer A" })).toBeVisible();
    await expect(page.getByRole("tabpanel", { name: "Answer B" })).toBeVisible();
  }
  const groups = form.getByRole("radiogroup");
  const n = await groups.count();
  expect(n).toBe(3);
  const value = { "1": "a", "2": "tie", "3": "b" }[key];
  for (let i = 0; i < n; i++) {
    await groups.nth(i).getByRole("radio").first().focus();
    await page.keyboard.press(key);
    await expect(groups.nth(i).locator(`input[value="${value}"]`)).toBeChecked();
  }
  if (first) found.push(...(await axe(page, `comparison page (${phone ? "phone" : "desk"})`)));
  const id = page.url().split("/").pop()!;
  const submitted = page.waitForResponse((r) => r.url().endsWith(`/comparison-assignments/${id}/submit`) && r.request().method() === "POST");
  await form.getByRole("button", { name: "Submit" }).click();
  const res = await submitted;
  expect(res.status()).toBe(200);
  expect(JSON.parse(res.request().postData() ?? "{}").elapsedMs, "time on task is sent").toBeGreaterThan(0);
  await expect(page).not.toHaveURL(new RegExp(`/grade/comparisons/${id}$`));
}

test.use({ actionTimeout: 20_000 });

test("a pairwise study end to end: created from the template, compared on desk and phone with the keyboard, a disagreement settled, the forest plot on the dashboard", async ({ page, browser }) => {
  test.setTimeout(420_000);
  const stamp = Date.now();
  const found: string[] = [];
  await signIn(page, demo.lead);

  await page.goto("/studies/new");
  await page.getByLabel("Name", { exact: true }).fill(`Pairwise e2e ${stamp}`);
  await page.getByLabel("Design").selectOption("pairwise");
  await page.getByLabel("Repetitions per prompt (N)").fill("1");
  await page.getByLabel("Primary graders per response set (k)").fill("2");
  await expect(page.getByRole("list", { name: "Chosen rubrics" }).getByRole("listitem")).toHaveCount(0);
  await page.getByLabel("Add a template").selectOption(TEMPLATE);
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByRole("list", { name: "Chosen rubrics" }).getByRole("listitem")).toHaveCount(1);
  await page.getByRole("button", { name: "Create study" }).click();
  await expect(page).toHaveURL(/\/studies\/[0-9a-f-]{36}$/);
  const studyId = page.url().split("/").pop()!;
  expect(((await (await page.request.get(`/api/v1/studies/${studyId}`)).json()) as { design: string }).design).toBe("pairwise");

  const tabs = page.getByRole("navigation", { name: "Study sections" });
  await importAnswers(page, answersCsv(), QUESTIONS * MODELS.length);
  const graders: Grader[] = await addGraders(page, 3, (i) => ({ email: `pw-e2e-${stamp}-${i}@hospital.example`, name: `Dr. Pair ${i}` }));
  await openStudy(page);
  await tabs.getByRole("link", { name: "Assignments" }).click();
  await page.getByRole("button", { name: "Plan and assign" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${QUESTIONS} comparisons planned over ${QUESTIONS} questions; ${QUESTIONS * 2} new assignments` })).toBeVisible();

  // Desk: always A; phone: always B. Each has two of the three comparisons; they share one.
  expect(await compareAll(browser, graders[0], "1", false, found)).toBe(2);
  expect(await compareAll(browser, graders[1], "3", true, found)).toBe(2);
  const plan = async () => ((await (await page.request.get(`/api/v1/studies/${studyId}/comparisons`)).json()) as { byStatus: Record<string, number> }).byStatus;
  expect((await plan()).AWAITING_ADJUDICATION).toBe(1);
  // The third grader: their own comparisons ("about the same" agrees with either side) and the disagreement.
  expect(await compareAll(browser, graders[2], "2", false, found)).toBe(3);
  expect(await plan()).toEqual({ AWAITING_GRADES: 0, AGREED: 2, AWAITING_ADJUDICATION: 0, ADJUDICATED: 1 });

  await tabs.getByRole("link", { name: "Dashboard" }).click();
  const forest = page.getByTestId("panel-pairwise-forest");
  await expect(forest).toBeVisible();
  await expect(forest.locator('svg[data-chart="pairwise-forest"]')).toBeVisible();
  for (const m of MODELS) await expect(forest.locator('svg[data-chart="pairwise-forest"]')).toContainText(m);
  await expect(page.getByTestId("panel-pairwise-matrix").locator('svg[data-chart="pairwise-matrix"]')).toBeVisible();
  await expect(page.getByTestId("panel-pairwise-bias")).toContainText("Left preferred");
  // The judges' preferences against the panel have their place on a pairwise study's dashboard (none yet here).
  await expect(page.getByTestId("judge-preferences-panel")).toContainText("No automated judge yet.");
  await expect(page.getByTestId("dashboard")).toContainText(`${7 * 3} submitted preferences`);
  // Nothing of a scoring instrument on a pairwise study's dashboard.
  await expect(page.getByTestId("dashboard")).not.toContainText(/S\.C\.O\.R\.E\.|SAFE-LLM/);
  const stats = (await (await page.request.get(`/api/v1/studies/${studyId}/stats`)).json()) as { pairwise: { data: { axes: { n: number; agreement: { comparisons: number } }[] } } };
  // Four axes (three and overall); per axis 2 + 2 + 3 preferences, every grader's own.
  expect(stats.pairwise.data.axes).toHaveLength(4);
  expect(stats.pairwise.data.axes[0].n).toBe(7);
  found.push(...(await axe(page, "lead dashboard (pairwise)")));
  expect(found).toEqual([]);
});
