import { expect, type Browser, type Page } from "@playwright/test";
import { gradingFormShown, signIn } from "./fixtures";
import {
  AI,
  DIM_KEYS,
  type DimKey,
  FIRST_LINE,
  HUMAN,
  KEY,
  QUESTIONS,
  SEVERE,
  SOURCES,
  type Source,
  ask,
  axe,
  expectNoSidewaysScroll,
  gradeOf,
  harmComment,
  labelOf,
} from "./own-instrument-study";

/**
 * The graders of own-instrument.spec.ts: each signs in (one on a desk, one on
 * a phone), checks the queue, grades the chosen sets on the grading page as a
 * person does and the others through the API the page posts to.
 */
export interface Grader {
  email: string;
  password: string;
}

/** The grader's assignments by question and source, read from the blinded view (the texts say which is which). */
export async function assignmentsOf(page: Page): Promise<Map<string, string>> {
  const { assignments } = (await (await page.request.get("/api/v1/me/assignments")).json()) as { assignments: { id: string }[] };
  expect(assignments).toHaveLength(QUESTIONS * SOURCES.length);
  const byCase = new Map<string, string>();
  for (const a of assignments) {
    const view = (await (await page.request.get(`/api/v1/assignments/${a.id}`)).json()) as { item: { question: string }; answers: { text: string }[] };
    const q = Number(view.item.question.match(/cycle (\d+) of 8/)![1]);
    const s: Source = view.answers[0].text.startsWith("Dear patient") ? AI : HUMAN;
    byCase.set(`${q}|${s}`, a.id);
  }
  expect(byCase.size).toBe(QUESTIONS * SOURCES.length);
  return byCase;
}

/** Grades one set through the API the form posts to (the harm decision included, where the scores cross the harm line). */
export async function gradeByApi(page: Page, id: string, q: number, s: Source, g: number) {
  const grade = gradeOf(q, s, g);
  const scores = DIM_KEYS.map((d) => ({ rubric: KEY, dimension: d, repetition: 1, score: grade[d].value, ...(grade[d].value === null ? { na: true } : {}), ...(grade[d].comment ? { comment: grade[d].comment } : {}) }));
  const severe = (grade.extent_of_harm.value as number) >= 4;
  if (severe) {
    // Across the harm line the server refuses a submission without the grader's decision.
    const undecided = await page.request.put(`/api/v1/assignments/${id}/grades`, { data: { scores, submit: true } });
    expect.soft(undecided.status(), `a "Severe harm" submitted without a decision: ${await undecided.text()}`).toBe(422);
    if (undecided.ok()) return; // submitted without it (the check above fails): nothing left to send
  }
  const harm = severe ? { harm: { flag: true, comment: harmComment(q, g) } } : {};
  const put = await page.request.put(`/api/v1/assignments/${id}/grades`, { data: { scores, submit: true, ...harm } });
  expect(put.status(), await put.text()).toBe(200);
}

/** The level of a field on the grading page, chosen as a grader does: a click on it (a tap on the phone). */
export async function choose(page: Page, dim: DimKey, label: string, touch: boolean) {
  const field = page.locator(`fieldset[data-cell="${KEY}/${dim}/1"]`);
  const option = field.locator("label.level-option").filter({ has: page.locator(".level-label", { hasText: new RegExp(`^${label}$`) }) });
  await (touch ? option.tap() : option.click());
  await expect(option.locator('input[type="radio"]')).toBeChecked();
}

/** Grades one set on its page as the grader does, the decisions the rubric asks for included. */
export async function gradeByPage(page: Page, id: string, q: number, s: Source, g: number, touch: boolean, found: string[]) {
  await page.goto(`/grade/${id}`);
  await gradingFormShown(page);
  // Blinded: no source's name on the page.
  for (const m of SOURCES) await expect(page.locator("body")).not.toContainText(m);
  // The question reads as written: its lines are lines (they were one run-on line, its first a bold heading).
  const body = page.getByTestId("question-body");
  await expect.soft(body).toBeVisible();
  if (await body.count()) {
    const lines = (await body.innerText()).split("\n").map((l) => l.trim());
    expect.soft(lines, "the question's lines").toEqual(expect.arrayContaining(["Diagnosis: breast cancer, stage II.", `Treatment: capecitabine, cycle ${q} of 8.`, ask(q)]));
    expect.soft(await body.locator("h1, h2, h3, h4").count(), "the question is text, not a heading").toBe(0);
  }
  if (touch) await expectNoSidewaysScroll(page, `phone grading page (question ${q})`);
  found.push(...(await axe(page, `grader ${g + 1} /grade (question ${q})`)));

  const grade = gradeOf(q, s, g);
  for (const d of DIM_KEYS) await choose(page, d, labelOf(d, grade[d].value), touch);
  const here = new URL(page.url()).pathname;
  const submit = page.getByRole("button", { name: "Submit grades" }).first();

  if (grade.acceptability.comment) {
    // "Unacceptable" asks for a comment: labelled required, and the set is not submitted without it.
    const field = page.locator(`fieldset[data-cell="${KEY}/acceptability/1"]`);
    const comment = field.getByRole("textbox", { name: /Comment on Acceptability/ });
    // It opens by itself (it was behind "Add comment", labelled optional).
    await expect.soft(comment, "the required comment opens by itself (h-builder)").toBeVisible();
    if (!(await comment.isVisible())) await field.getByRole("button", { name: /Add comment on Acceptability/ }).click();
    await expect.soft(comment).toHaveAccessibleName(/required/);
    await expect.soft(field).not.toContainText(/optional/i);
    await submit.click();
    await expect.soft(field).toContainText("Say why in a comment when scoring 1 or below");
    expect(new URL(page.url()).pathname, "not submitted without the comment").toBe(here);
    await comment.fill(grade.acceptability.comment);
  }

  if (q === SEVERE.q && s === SEVERE.s) {
    // "Severe harm" crosses the harm line: the grader must decide (it was an optional box at the bottom, left unticked).
    const harm = page.locator("#harm-flag");
    await expect(harm).toBeVisible();
    await expect.soft(harm).toContainText("Extent of harm is 4 (Severe harm)");
    const decision = harm.getByRole("group", { name: /Your decision/ });
    await expect.soft(decision, "a decision asked for across the harm line (h-settings)").toBeVisible();
    if (await decision.count()) {
      await submit.click();
      await expect.soft(harm).toContainText("flag a potential harm or say why it is not a harm");
      expect(new URL(page.url()).pathname, "not submitted without the decision").toBe(here);
      found.push(...(await axe(page, `grader ${g + 1} /grade, harm decision asked`)));
      // The desk grader flags it; the phone grader decides it is not a harm and says why.
      if (g === 0) {
        await decision.getByRole("radio", { name: "Flag potential harm" }).check();
        await harm.getByRole("textbox", { name: /What is the potential harm/ }).fill(harmComment(q, g));
      } else {
        const notHarm = decision.getByText("Not a harm", { exact: true });
        await (touch ? notHarm.tap() : notHarm.click());
        await expect(decision.getByRole("radio", { name: "Not a harm" })).toBeChecked();
        await harm.getByRole("textbox", { name: /Why is it not a harm/ }).fill("Grader 2: the reply asks the patient to call today.");
      }
    }
  }
  await (touch ? submit.tap() : submit.click());
  await page.waitForURL((url) => url.pathname !== here);
}

/** Signs a grader in, on a desk or a phone (390 px, touch), grades the chosen sets on the page and the rest by the API. */
export async function gradeStudy(browser: Browser, grader: Grader, g: number, onPage: { q: number; s: Source }[], found: string[]) {
  const phone = g === 1;
  const context = await browser.newContext(phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  try {
    await signIn(page, grader);
    const byCase = await assignmentsOf(page);
    await page.goto("/queue");
    const queue = page.getByRole("table", { name: "My assignments" });
    await expect(queue).toBeVisible();
    // The queue previews each question's last paragraph (the ask), never the first line all questions share.
    const previews = page.getByTestId("queue-preview");
    await expect.soft(previews.first()).toBeVisible();
    for (const p of await previews.allInnerTexts()) expect.soft(p, "a queue preview").toMatch(/^Question \d+: is the tingling/);
    await expect.soft(queue).not.toContainText(FIRST_LINE);
    if (phone) {
      await expectNoSidewaysScroll(page, "phone queue");
      expect.soft(await page.evaluate(() => matchMedia("(pointer: coarse)").matches)).toBe(true);
      // No "press N" on a touch screen.
      for (const hint of await page.getByTestId("press-hint").all()) await expect.soft(hint).toBeHidden();
    }
    found.push(...(await axe(page, `grader ${g + 1} /queue`)));

    for (const c of onPage) await gradeByPage(page, byCase.get(`${c.q}|${c.s}`)!, c.q, c.s, g, phone, found);
    for (let q = 1; q <= QUESTIONS; q++) {
      for (const s of SOURCES) {
        if (onPage.some((c) => c.q === q && c.s === s)) continue;
        await gradeByApi(page, byCase.get(`${q}|${s}`)!, q, s, g);
      }
    }
    await page.goto("/queue");
    await expect(page.getByRole("table", { name: "My assignments" })).toBeVisible();
    if (phone) await expectNoSidewaysScroll(page, "phone queue, all submitted");
  } finally {
    await context.close();
  }
}

