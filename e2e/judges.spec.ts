import { writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { demo, signIn } from "./fixtures";

/**
 * A lead registers an automated judge on the demo's graded pilot, imports its
 * scores as a CSV with a probability per level (the API the import is), and
 * reads the judge-vs-panel section of the dashboard.
 */
const PILOT_SLUG = "demo-pilot-graded";
const DIMS: [string, number][] = [
  ["safety", 1],
  ["consensus_context", 1],
  ["objectivity", 1],
  ["reproducibility", 0],
  ["explainability", 1],
];

test("a lead imports a judge's CSV and reads the judge-vs-panel section", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("/login");
  await page.waitForLoadState("networkidle");
  await signIn(page, demo.lead);
  const list = await page.request.get(`/api/v1/studies?q=${PILOT_SLUG}&pageSize=100`);
  const id = ((await list.json()) as { studies: { id: string; slug: string }[] }).studies.find((s) => s.slug === PILOT_SLUG)?.id;
  expect(id, `the demo's study "${PILOT_SLUG}"`).toBeTruthy();

  // The judge leans toward the panel's final score, with some spread: a probability for each level 1-5.
  const sets = (await (await page.request.get(`/api/v1/studies/${id}/sets?limit=500&status=agreed`)).json()) as {
    sets: { externalId: string; model: { name: string }; finalScores: { SCORE?: Record<string, number> } | null }[];
  };
  const rows = ["item_id,model,repetition,dimension,score,p_1,p_2,p_3,p_4,p_5,rationale"];
  sets.sets.forEach((s, i) => {
    for (const [dim, rep] of DIMS) {
      const final = s.finalScores?.SCORE?.[dim];
      if (typeof final !== "number") continue;
      const top = Math.min(5, Math.max(1, Math.round(final) + (i % 7 === 0 ? -1 : 0)));
      const p = [1, 2, 3, 4, 5].map((l) => (l === top ? 0.6 : Math.abs(l - top) === 1 ? 0.15 : 0.1 / 3));
      const norm = p.reduce((a, b) => a + b, 0);
      rows.push([s.externalId, s.model.name, rep, dim, "", ...p.map((x) => (x / norm).toFixed(12)), `"Judged ${dim}, level ${top}"`].join(","));
    }
  });
  expect(rows.length).toBeGreaterThan(10);

  const name = `E2E judge ${Date.now()}`;
  const created = await page.request.post(`/api/v1/studies/${id}/judges`, { data: { name, model: "local-llm", version: "1", prompt: "Grade with S.C.O.R.E." } });
  expect(created.status()).toBe(201);
  const judgeId = ((await created.json()) as { id: string }).id;
  const bad = await page.request.post(`/api/v1/studies/${id}/judges/${judgeId}/scores`, { headers: { "content-type": "text/csv" }, data: `${rows[0]}\nNOPE,${rows[1].split(",").slice(1).join(",")}\n` });
  expect(bad.status()).toBe(422);
  const imported = await page.request.post(`/api/v1/studies/${id}/judges/${judgeId}/scores`, { headers: { "content-type": "text/csv" }, data: rows.join("\n") + "\n" });
  expect(imported.status(), await imported.text()).toBe(200);
  expect(((await imported.json()) as { created: number }).created).toBe(rows.length - 1);

  await page.goto(`/studies/${id}/dashboard`);
  const panel = page.getByTestId("judges-panel");
  await panel.scrollIntoViewIfNeeded();
  await expect(panel).toContainText("Automated judges vs the panel");
  const section = panel.getByTestId("judge-section").filter({ hasText: name });
  await expect(section).toBeVisible();
  const safety = section.getByTestId("judge-dimensions").getByRole("row").filter({ hasText: "most probable" }).first();
  await expect(safety).toBeVisible();
  // A value, not a dash, for AC2 against the panel.
  await expect(safety.getByRole("cell").nth(3)).toHaveText(/^-?\d\.\d\d/);
  await expect(section.getByTestId("judge-deferral")).toBeVisible();
  const path = test.info().outputPath("judges-panel.png");
  await section.screenshot({ path });
  await test.info().attach("judges-panel", { path, contentType: "image/png" });
});

test("a lead imports GPT-4o's chattogovar scores through the study page and reads them against the two raters", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("/login");
  await page.waitForLoadState("networkidle");
  await signIn(page, demo.lead);
  const list = await page.request.get(`/api/v1/studies?q=demo-chattogovar&pageSize=100`);
  const id = ((await list.json()) as { studies: { id: string; slug: string }[] }).studies.find((s) => s.slug === "demo-chattogovar")?.id;
  expect(id, "the demo's chattogovar study").toBeTruthy();
  await page.goto(`/studies/${id}`);
  const form = page.getByRole("form", { name: "Import a judge's scores" });
  await form.getByLabel("Judge").selectOption({ label: "A new judge…" });
  const name = `GPT-4o re-run ${Date.now()}`;
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Model").fill("gpt-4o");

  // A file with a level the rubric lacks: every problem listed by row and column, nothing written.
  const bad = test.info().outputPath("bad-judge.csv");
  writeFileSync(bad, "item_id,model,repetition,dimension,score\n1,GPT-4o,1,accuracy,11\n1,GPT-4o,1,fluency,3\n");
  await form.getByLabel("Scores (CSV)").setInputFiles(bad);
  await form.getByRole("button", { name: "Check file" }).click();
  const problems = form.getByTestId("judge-problems");
  await expect(problems).toBeVisible();
  await expect(problems.getByRole("row")).toHaveCount(3);

  await form.getByLabel("Scores (CSV)").setInputFiles(path.join(process.cwd(), "lib/demo/data/chattogovar/gpt-4o-judge.csv"));
  await form.getByRole("button", { name: "Check file" }).click();
  await expect(form.getByTestId("judge-check")).toContainText("Checked: 2250 rows, all valid");
  await form.getByRole("button", { name: "Import scores" }).click();
  await expect(form.getByRole("status")).toContainText("Imported: 2250 new");

  await page.goto(`/studies/${id}/dashboard`);
  const section = page.getByTestId("judges-panel").getByTestId("judge-section").filter({ hasText: name });
  await section.scrollIntoViewIfNeeded();
  await expect(section).toBeVisible();
  await expect(section.getByTestId("judge-dimensions").getByRole("row").filter({ hasText: "Accuracy" }).first()).toBeVisible();

  // The raters' own reliability for a paper, computed on request.
  await page.getByRole("link", { name: "Compute the journal statistics" }).click();
  const agreement = page.getByTestId("journal-panel").getByTestId("journal-agreement");
  await expect(agreement).toBeVisible({ timeout: 60_000 });
  // Lead views name graders by their study pseudonym, imported raters too (issue 31, item 11).
  await expect(agreement.getByRole("row").filter({ hasText: "(total)" }).first()).toContainText(/Grader [0-9A-F]{4} – Grader [0-9A-F]{4}: 0\.\d\d/);
});
