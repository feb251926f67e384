import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import Papa from "papaparse";
import pg from "pg";
import { form as gradeForm, GOOD_SAFE } from "../tests/fixtures/grade-form";
import { productionServerArgs } from "../bench/lib/production-server";
import { gradingFormShown } from "./fixtures";
import { addGraders, importAnswers, openStudy } from "./study-setup";

/**
 * The whole study in Chromium, on a fresh database (its own server, embedded
 * PostgreSQL in a new folder): an admin creates a lead; the lead creates a study
 * with both rubrics, imports 6 questions x 3 models x 3 answers, adds 4 graders
 * and assigns; two graders grade every set (one pair disagreeing on safety); the
 * third grader adjudicates; the lead reads the dashboard and the adjudicated
 * set's final score, downloads every export and checks it, closes the study,
 * and a grader can no longer change a grade. A screenshot of each step goes to
 * the report.
 */
test.describe.configure({ mode: "serial" });

const port = 3700 + Math.floor(Math.random() * 150);
const base = `http://127.0.0.1:${port}`;
const dir = mkdtempSync(path.join(os.tmpdir(), "clingrade-whole-"));
const env = { ...process.env, DATABASE_URL: "", PORT: String(port), CLINGRADE_DATA_DIR: dir, CLINGRADE_PG_PORT: String(port + 22000), AUTH_SECRET: "whole-study-secret-0123456789abcdefghij", LOG_LEVEL: "warn" };
let app: ChildProcess;

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ["--import", "tsx", ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d) => (stdout += d));
    p.stderr.on("data", (d) => (stderr += d));
    p.on("exit", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

async function db<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const password = readFileSync(path.join(dir, "pg-password"), "utf8").trim();
  const c = new pg.Client({ connectionString: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${env.CLINGRADE_PG_PORT}/clingrade` });
  await c.connect();
  try {
    return (await c.query<T>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

async function shot(page: Page, name: string) {
  const file = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(name, { path: file, contentType: "image/png" });
}

async function signIn(browser: Browser, email: string, password: string) {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  await page.goto("/login");
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/login/);
  return page;
}

const MODELS = ["Alpha-Med 2", "Beta-Clin 7", "Gamma-Care 3"];
const SPECIALTIES = ["Ophthalmology", "Medication", "Anesthesia"];
function importCsv(): string {
  const rows = ["item_id,specialty,question,reference_answer,model,repetition,response,model_version,temperature"];
  for (let q = 1; q <= 6; q++) {
    for (const [m, model] of MODELS.entries()) {
      for (let r = 1; r <= 3; r++) {
        rows.push(
          [
            `WS-${q}`,
            SPECIALTIES[(q - 1) % 3],
            `"Question ${q}: what should a patient do about symptom ${q}?"`,
            `"See a clinician if it persists; first step is ${q}."`,
            model,
            r,
            `"Answer ${r} from a model, with **bold** advice and a list:\n- step one\n- step two (q${q}, m${m})"`,
            `v${m + 1}.0`,
            "0.7",
          ].join(","),
        );
      }
    }
  }
  return rows.join("\r\n");
}

/** A complete form of both rubrics with the given safety score. */
function form(safety: number) {
  return { scores: gradeForm({ score: [safety, 4, 5, 4, 4], safe: GOOD_SAFE }), submit: true };
}

const state = {
  studyId: "",
  graders: [] as { email: string; name: string; password: string }[],
  disagreeSet: "",
};

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = spawn(process.execPath, productionServerArgs([]), { env, stdio: ["ignore", "ignore", "inherit"] });
  await expect.poll(async () => (await fetch(`${base}/api/health`).catch(() => null))?.status, { timeout: 120_000, intervals: [500] }).toBe(200);
  const admin = await run(["scripts/admin.ts", "create-user", "--email", "admin@hospital.example", "--name", "Site Admin", "--role", "ADMIN", "--password", "admin-password-1"]);
  expect(admin.code, admin.stderr).toBe(0);
});

test.afterAll(async () => {
  app?.kill("SIGTERM");
  if (app) await new Promise((r) => app.once("exit", r));
});

test("1. an admin creates a lead", async ({ browser }) => {
  const page = await signIn(browser, "admin@hospital.example", "admin-password-1");
  await expect(page).toHaveURL(/\/admin\/users$/);
  await page.getByLabel("Name").fill("Dr. Study Lead");
  await page.getByLabel("Email").fill("lead@hospital.example");
  await page.getByLabel("Role").selectOption("LEAD");
  await page.getByLabel("Initial password").fill("lead-password-1");
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Created lead@hospital.example" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Users" })).toContainText("lead@hospital.example");
  await shot(page, "1-admin-created-lead");
});

test("2. the lead creates a study with both rubrics, imports 6 x 3 x 3 answers, adds 4 graders, opens it and assigns", async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signIn(browser, "lead@hospital.example", "lead-password-1");
  await page.getByRole("link", { name: "New study" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Whole-study acceptance");
  const chosen = page.getByRole("list", { name: "Chosen rubrics" }).getByRole("listitem");
  await expect(chosen).toHaveCount(2);
  await expect(chosen.nth(0)).toContainText("S.C.O.R.E.");
  await expect(chosen.nth(1)).toContainText("SAFE-LLM");
  await page.getByRole("button", { name: "Create study" }).click();
  await expect(page).toHaveURL(/\/studies\/[0-9a-f-]{36}$/);
  state.studyId = page.url().split("/").pop()!;
  await shot(page, "2a-study-created");

  const tabs = page.getByRole("navigation", { name: "Study sections" });
  await importAnswers(page, importCsv(), 54);
  await shot(page, "2b-imported");

  state.graders.push(...(await addGraders(page, 4, (i) => ({ email: `grader${i}@hospital.example`, name: `Dr. Grader ${i}` }))));
  await shot(page, "2c-graders");

  await openStudy(page);
  await tabs.getByRole("link", { name: "Assignments" }).click();
  await page.getByLabel("Seed (optional)").fill("acceptance-seed");
  await page.getByRole("button", { name: "Assign graders" }).click();
  await expect(page.getByRole("status").filter({ hasText: "36 new assignments over 18 complete sets" })).toBeVisible();
  await expect(page.getByTestId("assignment-seed")).toContainText("acceptance-seed");
  await shot(page, "2d-assigned");
});

test("3. two graders grade every set, one pair disagreeing on safety; the third grader adjudicates", async ({ browser }) => {
  test.setTimeout(180_000);
  // The set whose two primary graders will disagree: question WS-1, first model.
  const [target] = await db<{ id: string }>(
    `SELECT rs.id FROM "ResponseSet" rs JOIN "QaItem" q ON q.id = rs."itemId" JOIN "LlmModel" m ON m.id = rs."modelId" WHERE q."externalId" = 'WS-1' AND m.name = $1`,
    [MODELS[0]],
  );
  state.disagreeSet = target.id;
  const onTarget = await db<{ email: string }>(`SELECT u.email FROM "Assignment" a JOIN "User" u ON u.id = a."graderId" WHERE a."responseSetId" = $1 ORDER BY u.email`, [target.id]);
  const harsh = onTarget[1].email;

  for (const g of state.graders) {
    const page = await signIn(browser, g.email, g.password);
    await expect(page).toHaveURL(/\/queue$/);
    if (g === state.graders[0]) await shot(page, "3a-queue-before");
    const { assignments } = (await (await page.request.get("/api/v1/me/assignments")).json()) as { assignments: { id: string; responseSetId: string; kind: string }[] };
    // Primary work only: an adjudication may already have reached this grader's queue; it is graded in the form below.
    for (const a of assignments.filter((x) => x.kind === "PRIMARY")) {
      const safety = a.responseSetId === target.id && g.email === harsh ? 2 : 5;
      const r = await page.request.put(`/api/v1/assignments/${a.id}/grades`, { data: form(safety) });
      expect(r.status(), await r.text()).toBe(200);
    }
    if (g === state.graders[0]) {
      // A revision of a submitted grade (on a set that stays agreed), for the audit trail.
      const other = assignments.find((a) => a.kind === "PRIMARY" && a.responseSetId !== target.id)!;
      const revised = form(5);
      revised.scores.find((x) => x.dimension === "explainability")!.score = 3;
      expect((await page.request.put(`/api/v1/assignments/${other.id}/grades`, { data: revised })).status()).toBe(200);
    }
    await page.goto("/queue");
    await expect(page.getByRole("progressbar", { name: "Answer sets submitted" })).toBeVisible();
    if (g === state.graders[0]) await shot(page, "3b-queue-after");
    await page.context().close();
  }

  const [adj] = await db<{ email: string; id: string }>(
    `SELECT u.email, a.id FROM "Assignment" a JOIN "User" u ON u.id = a."graderId" WHERE a."responseSetId" = $1 AND a.kind = 'ADJUDICATOR'`,
    [target.id],
  );
  expect(onTarget.map((o) => o.email)).not.toContain(adj.email);
  const third = state.graders.find((g) => g.email === adj.email)!;
  const page = await signIn(browser, third.email, third.password);
  await expect(page.getByText("Third grader").first()).toBeVisible();
  await shot(page, "3c-third-grader-queue");
  await page.goto(`/grade/${adj.id}`);
  await expect(page.getByRole("heading", { name: "Answer 1", exact: true }).first()).toBeVisible();
  for (const m of MODELS) await expect(page.locator("body")).not.toContainText(m);
  // The adjudicator grades in the form itself: safety 3, the rest as the others did.
  for (const s of form(3).scores) {
    const cell = `${s.rubric}/${s.dimension}/${s.repetition ?? 0}`;
    // The radio is visually hidden inside its level's label, as in the grading form: click the label.
    await page.locator(`label:has(input[name="${cell}"][value="${s.score}"])`).click();
    await expect(page.locator(`input[name="${cell}"][value="${s.score}"]`)).toBeChecked();
  }
  await shot(page, "3d-adjudication-form");
  await page.getByRole("button", { name: "Submit grades" }).first().click();
  await expect(page.getByText(/were submitted/).first()).toBeVisible();
});

test("4. the lead reads the dashboard and the adjudicated set's final score, and downloads every export", async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await signIn(browser, "lead@hospital.example", "lead-password-1");
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(`/studies/${state.studyId}/dashboard`);
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  for (const p of ["radar-score", "radar-safe_llm", "alpha", "cliffs-score", "agreement"]) await expect(page.getByTestId(`panel-${p}`)).toBeVisible();
  await expect(page.getByTestId("panel-radar-score").locator(".recharts-radar-polygon")).toHaveCount(3);
  await shot(page, "4a-dashboard");

  // Final safety of the adjudicated set: (5 + 2 + 3) / 3; total 10/3 + 4 + 5 + 4 + 4.
  await page.goto(`/studies/${state.studyId}/results?status=ADJUDICATED`);
  const table = page.getByRole("table", { name: "Response sets" });
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table).toContainText("WS-1");
  await expect(table).toContainText("adjudicated");
  await expect(table).toContainText((10 / 3 + 17).toFixed(2));
  await shot(page, "4b-results-adjudicated");
  const api = (await (await page.request.get(`/api/v1/studies/${state.studyId}/sets?status=adjudicated`)).json()) as { sets: { id: string; finalScores: { SCORE: { safety: number } } }[] };
  expect(api.sets.map((s) => s.id)).toEqual([state.disagreeSet]);
  expect(api.sets[0].finalScores.SCORE.safety).toBeCloseTo(10 / 3, 10);

  await page.goto(`/studies/${state.studyId}/exports`);
  const download = async (testId: string) => {
    const [file] = await Promise.all([page.waitForEvent("download"), page.getByTestId(testId).click()]);
    return { name: file.suggestedFilename(), text: await readFile((await file.path())!, "utf8") };
  };
  const grades = await download("export-grades-csv");
  expect(grades.name).toMatch(/^whole-study-acceptance.*_grades_\d{4}-\d{2}-\d{2}\.csv$/);
  const gradeRows = Papa.parse<Record<string, string>>(grades.text.replace(/^\uFEFF/, ""), { header: true, skipEmptyLines: true }).data;
  expect(gradeRows).toHaveLength(37 * 18); // 36 primary forms + 1 adjudication, 18 stored scores each
  for (const m of MODELS) expect(gradeRows.some((r) => r.model === m)).toBe(true);
  const scoreLong = await download("export-score-long-csv");
  const lines = scoreLong.text.trim().split("\n");
  // The published analysis code's columns, then the reference metrics (the questions have reference answers).
  expect(lines[0]).toBe("domain,model,response_id,Safety,Consensus,Objectivity,Reproducibility,Explainability,bleu,rouge1,rougeL");
  expect(lines).toHaveLength(1 + 18);
  const sets = await download("export-sets-csv");
  expect(Papa.parse(sets.text.replace(/^\uFEFF/, ""), { header: true, skipEmptyLines: true }).data).toHaveLength(18);
  const summary = await download("export-summary-csv");
  expect(summary.text).toContain("cronbach_alpha");
  const audit = await download("export-audit-csv");
  expect(audit.text).toContain("escalation.create");
  const archive = await download("export-study-json");
  expect(JSON.parse(archive.text)).toMatchObject({ study: expect.objectContaining({ name: "Whole-study acceptance" }) });
  await shot(page, "4c-exports");

  // The audit view answers "who changed this grade and when".
  await page.goto(`/studies/${state.studyId}/audit`);
  await page.getByRole("combobox", { name: "Type" }).selectOption("grade.revise");
  const log = page.getByRole("table", { name: "Audit log" });
  await expect(log.getByRole("row")).toHaveCount(2);
  await expect(log).toContainText("Dr. Grader 1");
  await expect(log).toContainText("SCORE/explainability/1 · score: 4 → 3");
  await shot(page, "4d-audit-revision");
  expect(errors, errors.join("\n")).toEqual([]);
});

test("5. the lead closes the study and a grader can no longer change a grade", async ({ browser }) => {
  const lead = await signIn(browser, "lead@hospital.example", "lead-password-1");
  await lead.goto(`/studies/${state.studyId}`);
  await lead.getByRole("button", { name: "Close study" }).click();
  await expect(lead.getByTestId("study-status")).toHaveText("Closed");
  await shot(lead, "5a-closed");

  const g = state.graders[0];
  const page = await signIn(browser, g.email, g.password);
  const { assignments } = (await (await page.request.get("/api/v1/me/assignments")).json()) as { assignments: { id: string }[] };
  const r = await page.request.put(`/api/v1/assignments/${assignments[0].id}/grades`, { data: form(1) });
  expect(r.status()).toBe(409);
  expect(await r.json()).toEqual({ error: "the study is closed: grades can no longer be changed" });
  await page.goto(`/grade/${assignments[0].id}`);
  // The frame of a full load shows the same line: wait for the form itself.
  await gradingFormShown(page);
  await expect(page.getByText("This study is closed: your grades are shown read-only.")).toBeVisible();
  await expect(page.getByRole("button", { name: /Submit grades|Update submitted grades/ })).toHaveCount(0);
  await shot(page, "5b-grader-read-only");
});
