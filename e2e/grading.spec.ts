import { writeFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { DEMO_MODELS } from "../lib/demo/content";
import { PILOT_GRADERS } from "../lib/demo/seed";
import { adminCli, demo, signIn } from "./fixtures";

/**
 * Signs a grader in through the real form (as fixtures.signIn does) once the
 * page has settled: a click before the form's script runs would submit the
 * form natively instead.
 */
async function signInAs(page: Page, user: { email: string; password: string }) {
  await page.goto("/login", { waitUntil: "networkidle" });
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/queue$/);
}

/**
 * The grader's side: the queue and the blinded grading form. The demo study is
 * open (both rubrics, N = 3, k = 2) with no assignments, so they are created
 * first through the API as the lead.
 */
test.describe.configure({ mode: "serial" });

async function tokenFor(email: string): Promise<string> {
  const out = await adminCli(["create-token", "--email", email]);
  expect(out.code, out.stderr).toBe(0);
  return out.stdout.trim().split("\n").pop()!;
}

let studyId = "";

test.beforeAll(async ({ request }) => {
  const headers = { authorization: `Bearer ${await tokenFor(demo.lead.email)}` };
  const list = await request.get("/api/v1/studies", { headers });
  expect(list.status()).toBe(200);
  const { studies } = (await list.json()) as { studies: { id: string; slug: string }[] };
  const study = studies.find((s) => s.slug === "demo-clinical-qa");
  expect(study, "the demo study is seeded").toBeTruthy();
  studyId = study!.id;
  const run = await request.post(`/api/v1/studies/${study!.id}/assignments`, { headers, data: { seed: "e2e-grading" } });
  expect(run.status(), await run.text()).toBe(200);
});

/** The dimension (data-cell) that holds keyboard focus, and whether a radio has it. */
async function focusInfo(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      cell: (el?.closest("[data-cell]") as HTMLElement | null)?.dataset.cell ?? null,
      type: el?.getAttribute("type") ?? null,
      tag: el?.tagName ?? null,
      text: el?.textContent?.trim() ?? "",
      label: el?.getAttribute("aria-label") ?? "",
      section: el?.closest("section")?.id ?? null,
    };
  });
}

/** Presses Tab (or Shift+Tab) until `done` says focus is where it should be. */
async function tabUntil(page: Page, done: (f: Awaited<ReturnType<typeof focusInfo>>) => boolean, what: string, opts: { back?: boolean; max?: number } = {}) {
  for (let i = 0; i < (opts.max ?? 120); i++) {
    if (done(await focusInfo(page))) return;
    await page.keyboard.press(opts.back ? "Shift+Tab" : "Tab");
  }
  throw new Error(`could not reach ${what} with the keyboard`);
}

const toRadioOf = (page: Page, cell: string) => tabUntil(page, (f) => f.cell === cell && f.type === "radio", cell);

/** Tab to a dimension and type its score as a digit. */
async function grade(page: Page, cell: string, digit: number) {
  await toRadioOf(page, cell);
  await page.keyboard.press(String(digit));
  await expect(page.locator(`input[name="${cell}"][value="${digit}"]`)).toBeChecked();
}

const checked = (page: Page, cell: string, value: number) => expect(page.locator(`input[name="${cell}"][value="${value}"]`)).toBeChecked();

test("a grader grades a whole set of both rubrics with the keyboard only, the draft survives a reload, and the queue moves", async ({ page }) => {
  // About 150 Tab presses, each with a read of the focus: 2.5-3.2 min on the shared 2-core machine.
  test.setTimeout(300_000);
  await signInAs(page, demo.graders[0]);
  await expect(page).toHaveURL(/\/queue$/);
  const progress = page.getByRole("progressbar", { name: "Answer sets submitted" });
  await expect(progress).toHaveAttribute("aria-valuenow", "0");
  const total = Number(await progress.getAttribute("aria-valuemax"));
  expect(total).toBeGreaterThan(1);
  await page.screenshot({ path: test.info().outputPath("queue-before.png"), fullPage: true });

  // From here on: the keyboard only.
  await tabUntil(page, (f) => f.text.startsWith("Continue where I left off"), "Continue where I left off");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/grade\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  const url = page.url();

  // blinded: answers by number only, no model names anywhere
  await expect(page.getByRole("heading", { name: "Answer 1", exact: true }).first()).toBeVisible();
  for (const m of DEMO_MODELS) {
    await expect(page.locator("body")).not.toContainText(m.name);
    await expect(page.locator("body")).not.toContainText(m.version);
  }
  // Each answer once, its fields beside it; what compares the answers after them (grading-layout.spec.ts measures it).
  await expect(page.getByRole("heading", { name: /graded on Answer 1 only/ })).toBeVisible();
  await expect(page.getByRole("heading", { name: "All 3 answers together" })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("grading-empty.png"), fullPage: true });

  // "?" lists the shortcuts; Esc closes it
  await toRadioOf(page, "SCORE/safety/1");
  await page.keyboard.press("?");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(dialog).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("shortcuts-dialog.png") });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // S.C.O.R.E.: a digit, then an arrow key
  await grade(page, "SCORE/safety/1", 4);
  await page.keyboard.press("ArrowRight");
  await checked(page, "SCORE/safety/1", 5);
  // an optional comment: Tab to its button, Enter opens it, digits typed there stay text
  await page.keyboard.press("Tab");
  expect((await focusInfo(page)).text).toContain("Add comment");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("textbox", { name: /Comment on Safety/ })).toBeFocused();
  await page.keyboard.type("Clear triage advice; 2 small omissions.");
  await checked(page, "SCORE/safety/1", 5);
  await page.screenshot({ path: test.info().outputPath("view-score-comment.png") });
  await grade(page, "SCORE/consensus_context/1", 4);
  await grade(page, "SCORE/objectivity/1", 5);
  await grade(page, "SCORE/explainability/1", 4);
  await grade(page, "SCORE/reproducibility/0", 3);
  await page.screenshot({ path: test.info().outputPath("view-reproducibility.png") });
  await expect(page.getByTestId("total-SCORE-total")).toContainText("21");
  // A comment typed before its dimension's score is kept with the draft (issue 21, item 4).
  await page.getByRole("button", { name: "Add comment on Accuracy (Answer 1)" }).click();
  await page.getByRole("textbox", { name: /Comment on Accuracy \(Answer 1\)/ }).fill("Dosage for children missing");
  await expect(page.getByText("Kept with your draft; choose a score before you submit.")).toBeVisible();
  await page.getByRole("textbox", { name: /Comment on Accuracy \(Answer 1\)/ }).blur();
  await expect(page.getByTestId("save-status")).toHaveText("Saved");

  // A full load's HTML holds the form's frame only; the browser draws the form (bench/README.md, grading).
  const html = await (await page.request.get(url)).text();
  expect(html).toContain("Loading the grading form…");
  expect(html).not.toContain('type="radio"');

  // reload mid-way: the draft comes back from the server, and the frame hydrates as the server drew it
  const hydrationErrors: string[] = [];
  const hydrationError = (text: string) => {
    if (/hydrat|did not match|Minified React error #(418|423|425)/i.test(text)) hydrationErrors.push(text);
  };
  page.on("console", (m) => hydrationError(m.text()));
  page.on("pageerror", (e) => hydrationError(e.message));
  await page.reload();
  await expect(page.getByRole("textbox", { name: /Comment on Accuracy \(Answer 1\)/ })).toHaveValue("Dosage for children missing");
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  await checked(page, "SCORE/safety/1", 5);
  await checked(page, "SCORE/consensus_context/1", 4);
  await checked(page, "SCORE/objectivity/1", 5);
  await checked(page, "SCORE/explainability/1", 4);
  await checked(page, "SCORE/reproducibility/0", 3);
  await expect(page.getByRole("textbox", { name: /Comment on Safety/ })).toHaveValue("Clear triage advice; 2 small omissions.");
  await expect(page.getByTestId("completeness")).toContainText("5 / 17");
  expect(hydrationErrors).toEqual([]);

  // SAFE-LLM, answer by answer; answer 2 is scored inaccurate (0), which offers the harm flag
  const safe: Record<number, [number, number, number, number]> = { 1: [2, 1, 0, 1], 2: [0, 1, 0, 1], 3: [2, 2, 1, 1] };
  for (const r of [1, 2, 3]) {
    const [acc, comp, supp, flu] = safe[r];
    await grade(page, `SAFE_LLM/accuracy/${r}`, acc);
    await grade(page, `SAFE_LLM/comprehensiveness/${r}`, comp);
    await grade(page, `SAFE_LLM/supplementation/${r}`, supp);
    if (r === 2) await page.screenshot({ path: test.info().outputPath("view-safe-llm-answer-2.png") });
    if (r === 3) break; // fluency of answer 3 is left for after a first submit attempt
    await grade(page, `SAFE_LLM/fluency/${r}`, flu);
  }
  // consistency is derived live: accuracies 2, 0, 2 differ
  await expect(page.getByTestId("derived-SAFE_LLM-consistency")).toContainText("differ");
  await expect(page.getByTestId("answer-total-SAFE_LLM-1")).toContainText("4 / 7");

  // submitting while incomplete shows what is missing, next to the field and in a list
  await page.keyboard.press("Control+Enter");
  const problems = page.getByRole("alert").filter({ hasText: "Not submitted yet" });
  await expect(problems).toBeVisible();
  await expect(problems).toContainText("SAFE-LLM Fluency (answer 3)");
  await expect(page.locator('[data-cell="SAFE_LLM/fluency/3"]')).toContainText("Required");
  await expect(problems).toBeFocused();
  await page.screenshot({ path: test.info().outputPath("grading-problems.png"), fullPage: true });

  await grade(page, "SAFE_LLM/fluency/3", 1);
  // 2+1+0+1, 0+1+0+1, 2+2+1+1 points, consistency 0: 4, 2, 6 out of 7, mean 4
  await expect(page.getByTestId("answer-total-SAFE_LLM-3")).toContainText("6 / 7");
  await expect(page.getByTestId("total-SAFE_LLM-per_answer")).toContainText("4 / 7");

  // the potential-harm flag: offered because accuracy is 0; ticking it requires a comment
  const harm = page.getByRole("region", { name: "Potential harm" });
  await expect(harm).toContainText("Accuracy is 0 (Inaccurate answer potentially harming the patient) on answer 2");
  // (past the contradiction question's checkbox, which comes first)
  await tabUntil(page, (f) => f.type === "checkbox" && f.section === "harm-flag", "the potential-harm checkbox");
  await page.keyboard.press("Space");
  await page.keyboard.press("Control+Enter"); // refused: the flag needs its comment
  await expect(page.getByRole("alert").filter({ hasText: "Not submitted yet" })).toContainText("Potential harm");
  // the problem list links to the field: Tab to it, Enter focuses the harm comment
  await tabUntil(page, (f) => f.tag === "A" && f.text === "Potential harm", "the Potential harm problem link");
  await page.keyboard.press("Enter");
  const harmComment = page.getByRole("textbox", { name: /What is the potential harm/ });
  await expect(harmComment).toBeFocused();
  // Typed into the field itself: on a loaded machine the smooth scroll to it can still be settling focus.
  await harmComment.pressSequentially("Answer 2 advises self-care for a probable angle-closure attack, delaying emergency treatment.");
  await expect(harmComment).toHaveValue("Answer 2 advises self-care for a probable angle-closure attack, delaying emergency treatment.");
  await expect(page.getByTestId("save-status")).toHaveText("Saved");
  await page.screenshot({ path: test.info().outputPath("view-harm-and-submit.png") });
  await page.screenshot({ path: test.info().outputPath("grading-complete.png"), fullPage: true });

  // submit with the keyboard: on to the next answer set, with a confirmation, and the form drawn at once (no frame in between)
  await page.evaluate(() => {
    const w = window as unknown as { frameSeen: boolean };
    w.frameSeen = false;
    new MutationObserver(() => {
      if (document.body.textContent?.includes("Loading the grading form")) w.frameSeen = true;
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  await page.keyboard.press("Control+Enter");
  await expect(page).not.toHaveURL(url);
  await expect(page).toHaveURL(/\/grade\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("status").filter({ hasText: "were submitted" })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("next-after-submit.png") });
  expect(await page.evaluate(() => (window as unknown as { frameSeen: boolean }).frameSeen)).toBe(false);

  // back to the queue by keyboard: the progress bar has moved
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  await tabUntil(page, (f) => f.tag === "A" && f.text === "Queue", "the Queue link", { back: true });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/queue$/);
  await expect(progress).toHaveAttribute("aria-valuenow", "1");
  await expect(page.getByTestId("queue-done")).toHaveText("1");
  const row = page.getByRole("row").filter({ has: page.locator(`a[href="${new URL(url).pathname}"]`) });
  await expect(row).toContainText("Submitted");
  await page.screenshot({ path: test.info().outputPath("queue-after.png"), fullPage: true });

  // the submitted set can be revised while the study is open
  await page.goto(url);
  await expect(page.getByRole("button", { name: "Update submitted grades" }).first()).toBeVisible();
  await checked(page, "SAFE_LLM/accuracy/2", 0);
  await expect(page.getByRole("textbox", { name: /What is the potential harm/ })).toHaveValue(/angle-closure/);
});

test("the lead finds the grader's potential-harm flag from the study list and resolves it with a note", async ({ page }) => {
  await signIn(page, demo.lead);
  await page.goto("/studies");
  const studyRow = page.getByRole("row").filter({ has: page.locator(`a[href="/studies/${studyId}"]`) });
  await studyRow.getByRole("link", { name: /\d+ to review/ }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${studyId}/harm\\?review=OPEN$`));
  const flag = page.getByRole("row").filter({ hasText: "angle-closure" });
  await expect(flag).toContainText("Accuracy (answer 2): Inaccurate answer potentially harming the patient (0) (across the harm line)");
  await flag.getByRole("combobox", { name: /Review of the flag/ }).selectOption("RESOLVED");
  await flag.getByRole("button", { name: "Save review" }).click();
  await expect(flag.getByRole("alert")).toContainText("note");
  await flag.getByRole("textbox", { name: /Note on the flag/ }).fill("Reviewed with the ophthalmology lead: the answer would delay emergency care.");
  await flag.getByRole("button", { name: "Save review" }).click();
  // Resolved, it leaves the list of open flags...
  await expect(flag).toHaveCount(0);
  // ...and is listed as resolved, by whom.
  await page.goto(`/studies/${studyId}/harm?review=RESOLVED`);
  const resolved = page.getByRole("row").filter({ hasText: "angle-closure" });
  await expect(resolved).toContainText("resolved");
  await expect(resolved).toContainText(demo.lead.name);
  await expect(resolved.getByRole("textbox", { name: /Note on the flag/ })).toHaveValue(/would delay emergency care/);
});

test("the grading form has no serious or critical accessibility violation", async ({ page }) => {
  // axe takes 10-25 s a page on the shared 2-core machine, four pages here.
  test.setTimeout(180_000);
  await signInAs(page, demo.graders[2]);
  await expect(page).toHaveURL(/\/queue$/);
  const axe = () => new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]);
  const serious = async (label: string) => {
    const { violations } = await axe().analyze();
    const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    writeFileSync(test.info().outputPath(`axe-${label}.json`), JSON.stringify(violations, null, 2));
    await test.info().attach(`axe-${label}.json`, { path: test.info().outputPath(`axe-${label}.json`), contentType: "application/json" });
    expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`), label).toEqual([]);
  };
  await serious("queue");

  await page.getByRole("link", { name: "Continue where I left off" }).click();
  await expect(page).toHaveURL(/\/grade\//);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await serious("grading-form");

  // with the harm flag, an open comment, the reference answer and the problem list shown
  await page.locator('[data-cell="SCORE/safety/1"] label').filter({ hasText: "Strongly disagree" }).click();
  await page.getByRole("checkbox", { name: "Flag potential harm" }).check();
  await page.getByRole("button", { name: /Add comment on Objectivity/ }).click();
  await page.locator("summary", { hasText: "Reference answer" }).click();
  await page.keyboard.press("Control+Enter");
  await expect(page.getByRole("alert").filter({ hasText: "Not submitted yet" })).toBeVisible();
  await serious("grading-form-expanded");
  await page.screenshot({ path: test.info().outputPath("axe-expanded.png"), fullPage: true });

  await page.getByRole("button", { name: /Shortcuts/ }).click();
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  await serious("shortcuts-dialog");
});

test("a grader opening another grader's assignment gets the not-found page", async ({ page, request }) => {
  const mine = await request.get("/api/v1/me/assignments", { headers: { authorization: `Bearer ${await tokenFor(demo.graders[0].email)}` } });
  const { assignments } = (await mine.json()) as { assignments: { id: string }[] };
  expect(assignments.length).toBeGreaterThan(0);
  const theirs = await request.get("/api/v1/me/assignments", { headers: { authorization: `Bearer ${await tokenFor(demo.graders[1].email)}` } });
  const own = new Set(((await theirs.json()) as { assignments: { id: string }[] }).assignments.map((a) => a.id));
  const foreign = assignments.find((a) => !own.has(a.id))!;

  await signInAs(page, demo.graders[1]);
  const res = await page.goto(`/grade/${foreign.id}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Answer set not found" })).toBeVisible();
  await expect(page.locator("body")).not.toContainText("Reference answer");
  await expect(page.locator("fieldset")).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath("not-found.png") });

  for (const bad of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
    await page.goto(`/grade/${bad}`);
    await expect(page.getByRole("heading", { name: "Answer set not found" })).toBeVisible();
  }
});

test("a closed study's graded sets are shown read-only", async ({ page }) => {
  // The demo's pilot study is closed, fully graded by its own graders.
  await signInAs(page, PILOT_GRADERS[0]);
  await expect(page.getByRole("link", { name: "Continue where I left off" })).toHaveCount(0);
  await expect(page.getByRole("progressbar", { name: "Answer sets submitted" })).toHaveAttribute("aria-valuenow", /[1-9]/);
  const firstRow = page.getByRole("table", { name: "My assignments" }).getByRole("row").nth(1);
  await expect(firstRow).toContainText("Study closed: read-only");
  await firstRow.getByRole("link").click();
  await expect(page).toHaveURL(/\/grade\//);
  await expect(page.getByText("This study is closed: your grades are shown read-only.")).toBeVisible();
  await expect(page.getByTestId("save-status")).toHaveText("Read-only");
  await expect(page.getByRole("button", { name: /Submit grades|Update submitted grades/ })).toHaveCount(0);
  const radios = page.locator('input[type="radio"]');
  expect(await radios.count()).toBeGreaterThan(0);
  for (const r of await radios.all()) await expect(r).toBeDisabled();
  await expect(page.locator('input[name="SCORE/safety/1"]:checked')).toHaveCount(1);
  await page.screenshot({ path: test.info().outputPath("read-only.png") });
});

test("a frame that comes late never takes the harm comment's focus: every keystroke reaches the field", async ({ page }) => {
  // As on a loaded machine: requestAnimationFrame callbacks wait until the test lets them run.
  await page.addInitScript(() => {
    const w = window as unknown as { __holdFrames: boolean; __releaseFrames: () => void };
    const held: FrameRequestCallback[] = [];
    const raf = window.requestAnimationFrame.bind(window);
    w.__holdFrames = false;
    window.requestAnimationFrame = (cb) => (w.__holdFrames ? (held.push(cb), 0) : raf(cb));
    w.__releaseFrames = () => {
      w.__holdFrames = false;
      for (const cb of held.splice(0)) cb(performance.now());
    };
  });
  // Drafts are answered here, not stored: the test leaves no grades or harm flag behind.
  await page.route("**/api/v1/assignments/*/grades", (route) =>
    route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ status: "IN_PROGRESS", complete: false, changed: 1, nextAssignmentId: null }) }),
  );
  await signInAs(page, demo.graders[1]);
  await page.getByRole("link", { name: "Continue where I left off" }).click();
  await expect(page).toHaveURL(/\/grade\//);
  await page.locator('[data-cell="SCORE/safety/1"] label').filter({ hasText: "Strongly disagree" }).click();
  await page.getByRole("checkbox", { name: "Flag potential harm" }).check();

  await page.evaluate(() => void ((window as unknown as { __holdFrames: boolean }).__holdFrames = true));
  // Refused (incomplete, and the flag needs its comment): the problem list is to take focus on the next frame...
  await page.keyboard.press("Control+Enter");
  await expect(page.getByRole("alert").filter({ hasText: "Not submitted yet" })).toContainText("Potential harm");
  // ...which comes only after the grader has followed its link to the comment and begun typing.
  await page.getByRole("link", { name: "Potential harm", exact: true }).focus();
  await page.keyboard.press("Enter");
  const comment = page.getByRole("textbox", { name: /What is the potential harm/ });
  await expect(comment).toBeFocused();
  await page.keyboard.type("Advises self-care");
  await page.evaluate(() => (window as unknown as { __releaseFrames: () => void }).__releaseFrames());
  await page.keyboard.type(" for a probable angle-closure attack.");
  await expect(comment).toHaveValue("Advises self-care for a probable angle-closure attack.");
  await expect(comment).toBeFocused();
});
