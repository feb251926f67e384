import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { startJudgeStub, type ChatBody } from "../tests/integration/helpers/judge-stub";
import { demo, e2eDatabaseUrl, gradingFormShown, signIn } from "./fixtures";

/**
 * Issue 33, stage 1: the lead screens the open demo study's answers on the
 * Screening tab (a refused rule named in the message, a dry run, then the run
 * in warn mode, in the production build's worker thread); a grader whose set
 * holds a screened answer sees the neutral warning, never the rule. axe clean.
 */
test("a lead screens the answers and a grader sees only the neutral warning", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await db.connect();
  const study = (await db.query<{ id: string }>(`SELECT id FROM "Study" WHERE slug = 'demo-clinical-qa'`)).rows[0].id;

  await signIn(page, demo.lead);
  await page.goto(`/studies/${study}`);
  await page.getByRole("navigation", { name: "Study sections" }).getByRole("link", { name: "Screening" }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${study}/screening`));
  await expect(page.getByText("The study's answers have not been screened yet.")).toBeVisible();

  await page.getByLabel("Reason (rule name)").fill("Acute-glaucoma screen");
  await page.getByLabel("Kind").selectOption("regex");
  await page.getByLabel("Pattern (RE2 syntax)").fill("glaucoma(?= )");
  await page.getByRole("button", { name: "Dry run" }).click();
  const problems = page.getByRole("form", { name: "Screening rules" }).getByRole("alert");
  await expect(problems).toContainText("Some rules cannot be run");
  await expect(problems).toContainText('rule "Acute-glaucoma screen": not a valid regular expression');

  await page.getByLabel("Pattern (RE2 syntax)").fill("(?i)angle-closure glaucoma");
  await page.getByRole("button", { name: "Dry run" }).click();
  const dry = page.getByTestId("screen-dry-run");
  await expect(dry.getByRole("table", { name: "Screened answers" })).toBeVisible();
  await expect(dry).toContainText("Dry run: nothing was stored.");
  expect((await db.query(`SELECT 1 FROM "ScreenRun" WHERE "studyId" = $1`, [study])).rowCount).toBe(0);

  await page.getByLabel("Keep them for grading; graders see a neutral warning on each (never the rule)").check();
  await page.getByRole("button", { name: "Run the screen" }).click();
  const current = page.getByTestId("screen-results");
  await expect(current.getByRole("table", { name: "Screened answers" })).toBeVisible();
  await expect(current).toContainText("Acute-glaucoma screen");
  await expect(current).toContainText("Run by");
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  const audit = await db.query<{ action: string }>(`SELECT action FROM "AuditEvent" WHERE "studyId" = $1 AND action = 'screen.run'`, [study]);
  expect(audit.rowCount).toBe(1);

  // A grader with a screened answer in one of their sets.
  const mine = await db.query<{ id: string; email: string }>(
    `SELECT a.id, u.email FROM "ScreenHit" h JOIN "Response" r ON r.id = h."responseId" JOIN "Assignment" a ON a."responseSetId" = r."responseSetId"
     JOIN "User" u ON u.id = a."graderId" WHERE a."studyId" = $1 AND a.status <> 'CANCELLED' ORDER BY u.email LIMIT 1`,
    [study],
  );
  expect(mine.rowCount, "the demo's graders hold a screened answer").toBe(1);
  const grader = demo.graders.find((g) => g.email === mine.rows[0].email)!;
  const context = await browser.newContext();
  const gp = await context.newPage();
  await signIn(gp, grader);
  await gp.goto(`/grade/${mine.rows[0].id}`);
  await gradingFormShown(gp);
  await expect(gp.getByTestId("screen-warning").first()).toContainText("This answer was flagged by the study's safety screen: read it with care.");
  // The rule's name (the lead's reason) is nowhere in what the grader receives; the answers' own words ("an eye emergency") are.
  await expect(gp.getByText("Acute-glaucoma screen")).toHaveCount(0);
  expect(await gp.content()).not.toContain("Acute-glaucoma screen");
  await context.close();
  await db.end();
});

/**
 * The screen's automated judge against a local OpenAI-compatible stub (the
 * server reaches it as it reaches the judge runs' stub): the admin sets the
 * endpoint up, the lead screens in exclude mode with the judge alone; the run
 * works in the background while the page follows it, then shows the judge's
 * reason, the answer it could not screen, and the ungraded work it withdrew.
 * A grader who had that set open is told so when the form next saves. The
 * demo is left as found: a last screen that matches nothing, the work given back.
 */
test("a lead screens with an automated judge; an excluded set's open page is told it was withdrawn", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await db.connect();
  const study = (await db.query<{ id: string }>(`SELECT id FROM "Study" WHERE slug = 'demo-clinical-qa'`)).rows[0].id;
  // An ungraded primary assignment, its set's answers (the judge flags them), and one other answer (its reply is not a verdict).
  const open = (
    await db.query<{ id: string; email: string; set: string }>(
      `SELECT a.id, u.email, a."responseSetId" AS set FROM "Assignment" a JOIN "User" u ON u.id = a."graderId"
       WHERE a."studyId" = $1 AND a.kind = 'PRIMARY' AND a.status = 'PENDING' ORDER BY a.id LIMIT 1`,
      [study],
    )
  ).rows[0];
  expect(open, "the demo has ungraded work").toBeTruthy();
  const flagged = new Set((await db.query<{ text: string }>(`SELECT text FROM "Response" WHERE "responseSetId" = $1`, [open.set])).rows.map((r) => r.text));
  const unreadable = (
    await db.query<{ text: string }>(
      `SELECT r.text FROM "Response" r JOIN "ResponseSet" rs ON rs.id = r."responseSetId" WHERE rs."studyId" = $1 AND rs.id <> $2 ORDER BY r.id LIMIT 1`,
      [study, open.set],
    )
  ).rows[0].text;
  const answerOf = (body: ChatBody) => /\nAnswer:\n([\s\S]*)$/.exec(body.messages[1]?.content ?? "")?.[1] ?? "";
  const stub = await startJudgeStub({
    logprobs: false,
    content: (_n, _d, body) => {
      const a = answerOf(body);
      if (flagged.has(a)) return '{"unsafe": true, "reason": "Advises a dose with no monitoring (e2e stub)."}';
      if (a === unreadable) return "I cannot decide.";
      return '{"unsafe": false, "reason": "No unsafe advice."}';
    },
  });
  try {
    const admin = await (await browser.newContext()).newPage();
    await signIn(admin, demo.admin);
    const endpointName = `Screen stub ${Date.now()}`;
    const created = await admin.request.post("/api/v1/judge-endpoints", { data: { name: endpointName, baseUrl: stub.url, model: "stub-screen-e2e", logprobs: false, concurrency: 4 } });
    expect(created.status()).toBe(201);

    // The grader opens the set before the screen.
    const grader = demo.graders.find((g) => g.email === open.email)!;
    const gctx = await browser.newContext();
    const gp = await gctx.newPage();
    await signIn(gp, grader);
    await gp.goto(`/grade/${open.id}`);
    await gradingFormShown(gp);

    await signIn(page, demo.lead);
    await page.goto(`/studies/${study}/screening`);
    // The judge alone: the first test's rule is removed (an empty row is left out).
    await page.getByRole("button", { name: "Remove rule 1" }).click();
    await page.getByLabel("Also ask an automated judge about every answer").check();
    await page.getByLabel("Endpoint").selectOption({ label: `${endpointName} (stub-screen-e2e)` });
    await expect(page.getByLabel("Screening prompt")).toHaveValue(/unsafe clinical advice/);
    await page.getByLabel("Exclude their answer sets from assignment").check();
    await page.getByRole("button", { name: "Run the screen" }).click();

    const current = page.getByTestId("screen-results");
    await expect(current).toContainText("Advises a dose with no monitoring (e2e stub).", { timeout: 60_000 });
    await expect(page.getByTestId("screen-in-progress")).toHaveCount(0);
    await expect(current).toContainText(`Automated judge: ${endpointName} (stub-screen-e2e)`);
    const notScreened = current.getByRole("table", { name: "Answers not screened" });
    await expect(notScreened).toContainText("could not screen: the reply is not one JSON object");
    await expect(current.getByRole("region", { name: "Answers the judge could not screen" })).toContainText("neither passed nor screened out");
    const counts = current.getByLabel("Screen counts");
    await expect(counts).toContainText("Assignments withdrawn");
    await expect(current).toContainText("ungraded assignments were withdrawn (their graders no longer see them)");
    const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
    expect((await db.query(`SELECT status FROM "Assignment" WHERE id = $1`, [open.id])).rows[0].status).toBe("CANCELLED");
    // Blind: no model under test is named to the judge.
    const models = (await db.query<{ name: string }>(`SELECT name FROM "LlmModel" WHERE "studyId" = $1`, [study])).rows.map((m) => m.name);
    const sent = JSON.stringify(stub.bodies.map((b) => b.messages));
    for (const m of models) expect(sent).not.toContain(m);

    // The grader's open page: the next save is refused with the reason, not an error page.
    // A score given (the form's radios are styled, hence force); a click, not check(): the refused save turns the form read-only.
    await gp.getByRole("radio").first().click({ force: true });
    await expect(gp.getByText(/This assignment was withdrawn: the study's safety screen excluded this answer set from grading/)).toBeVisible({ timeout: 20_000 });
    await gctx.close();

    // Leave the demo as found for the specs after this one.
    const cleanup = await page.request.post(`/api/v1/studies/${study}/screening`, { data: { rules: [{ name: "Nothing", kind: "term", pattern: "zzqqxxnothing" }], action: "warn" } });
    expect(cleanup.status()).toBe(200);
    const run = await db.query<{ after: { withdrawnAssignments: { id: string; status: string }[] } }>(
      `SELECT after FROM "AuditEvent" WHERE "studyId" = $1 AND action = 'screen.run' AND after->'judge' IS NOT NULL AND after->'judge' <> 'null'::jsonb ORDER BY "createdAt" DESC LIMIT 1`,
      [study],
    );
    for (const w of run.rows[0].after.withdrawnAssignments) await db.query(`UPDATE "Assignment" SET status = $2::"AssignmentStatus" WHERE id = $1`, [w.id, w.status]);
  } finally {
    await stub.close();
    await db.end();
  }
});
