import { expect, test } from "@playwright/test";
import { PILOT_GRADERS } from "../lib/demo/seed";
import pg from "pg";
import { demo, e2eDatabaseUrl, signIn } from "./fixtures";
import { gradedSurveyStudy, SOURCES, SURVEY } from "./survey-study";

/** A response set of a study other than `studyId` (the demo has several). */
async function setOfAnotherStudy(studyId: string): Promise<string> {
  const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await db.connect();
  try {
    return (await db.query<{ id: string }>(`SELECT id FROM "ResponseSet" WHERE "studyId" <> $1 ORDER BY id LIMIT 1`, [studyId])).rows[0].id;
  } finally {
    await db.end();
  }
}

/**
 * Results -> one set's detail, on the seeded graded pilot: the lead opens an
 * adjudicated set from the results table and sees each grader's scores under
 * a pseudonym, the escalation and its adjudicator, the final scores and the
 * set's audit timeline; graders cannot open the page.
 */
test("a lead opens an adjudicated set from the results table; a grader cannot", async ({ page, browser }) => {
  await signIn(page, demo.lead);
  await page.goto("/studies");
  await page.getByRole("link", { name: /Pilot \(closed\)/ }).first().click();
  await expect(page).toHaveURL(/\/studies\/[0-9a-f-]{36}/);
  const studyId = page.url().match(/\/studies\/([0-9a-f-]{36})/)![1];
  await page.goto(`/studies/${studyId}/results?status=ADJUDICATED`);
  const first = page.getByRole("table", { name: "Response sets" }).getByRole("link").first();
  const item = (await first.innerText()).trim();
  await first.click();
  await expect(page).toHaveURL(new RegExp(`/studies/${studyId}/results/[0-9a-f-]{36}$`));
  const detail = page.getByTestId("set-detail");
  await expect(detail.getByRole("heading", { level: 2 }).first()).toContainText(item);

  // Three graders (two primaries, the adjudicator) under pseudonyms, scores per dimension from the rubric's labels.
  const score = page.getByRole("table", { name: "S.C.O.R.E. scores" });
  await expect(score.getByRole("columnheader", { name: /Grader [0-9A-F]{4}/ })).toHaveCount(3);
  await expect(score.getByRole("columnheader", { name: /adjudicator/ })).toHaveCount(1);
  await expect(score.getByRole("cell", { name: "Safety", exact: true })).toBeVisible();
  await expect(page.getByTestId("final-SCORE-total")).toHaveText(/^\d+(\.\d+)?$/);
  // A dimension graded on each answer has its Final per answer, and over the answers.
  const each = (await page.getByTestId(/^final-SAFE_LLM-dim-accuracy:/).allTextContents()).map((t) => t.trim());
  expect(each.length).toBeGreaterThanOrEqual(2);
  for (const t of each) expect(t).toMatch(/^\d+(\.\d+)?$/);
  await expect(page.getByTestId("set-escalation")).toContainText(/resolved .* adjudicator: Grader [0-9A-F]{4}/);
  const timeline = page.getByTestId("set-timeline");
  await expect(timeline.getByText("assignment.submit")).toHaveCount(3);
  await expect(timeline.getByText("escalation.create")).toHaveCount(1);
  const text = await detail.innerText();
  for (const g of PILOT_GRADERS) {
    expect(text).not.toContain(g.name);
    expect(text).not.toContain(g.email);
  }
  const url = page.url();

  // A grader (even one who graded this set) gets 403; a set that is not the study's is not found.
  const graderPage = await (await browser.newContext()).newPage();
  await signIn(graderPage, PILOT_GRADERS[0]);
  expect((await graderPage.goto(url))!.status()).toBe(403);
  await expect(graderPage.getByText("Not available to your role")).toBeVisible();
  await graderPage.context().close();
  // A set of another study, a made-up id: a real 404 status (the set is checked before the page streams).
  for (const bad of ["00000000-0000-4000-8000-000000000000", "not-a-set", await setOfAnotherStudy(studyId)]) {
    const res = await page.goto(url.replace(/results\/[0-9a-f-]{36}$/, `results/${bad}`));
    expect(res!.status(), bad).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByTestId("set-detail")).toHaveCount(0);
  }
});

test("a study without a total: Results has a sortable, filterable column per dimension; the set detail a Final per answer", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, demo.lead);
  const id = await gradedSurveyStudy(page, browser);
  const key = SURVEY.key;
  await page.goto(`/studies/${id}/results`);
  const table = page.getByRole("table", { name: "Response sets" });
  for (const h of ["Acceptability (1-3)", "Extent of harm (1-5)", "Written by"]) await expect(table.getByRole("columnheader", { name: h })).toBeVisible();
  await expect(page.locator("body")).not.toContainText(/S\.C\.O\.R\.E\.|SAFE-LLM/);
  // Sorted by acceptability, highest first: the model's four sets (3.00), then the clinician's (1.50).
  await page.goto(`/studies/${id}/results?sort=-d.${key}.acceptability`);
  const rows = table.getByRole("row");
  await expect(rows).toHaveCount(9);
  await expect(rows.nth(1)).toContainText(SOURCES[0]);
  await expect(rows.nth(1)).toContainText("3.00");
  await expect(rows.nth(8)).toContainText(SOURCES[1]);
  await expect(rows.nth(8)).toContainText("1.50");
  // Filtered on a nominal level: the label shows, four sets.
  await page.getByRole("combobox", { name: "Final value" }).selectOption(`${key}.written_by=human`);
  await expect(page).toHaveURL(/final=/);
  await expect(rows).toHaveCount(5);
  for (let i = 1; i <= 4; i++) await expect(rows.nth(i)).toContainText("Human");
  // N/A filters too: the model's first question had no harm to rate.
  await page.goto(`/studies/${id}/results?final=${key}.extent%3Dna`);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("N/A");

  await rows.nth(1).getByRole("link").click();
  await expect(page.getByTestId("set-detail")).toBeVisible();
  await expect(page.getByTestId(`final-${key}-dim-acceptability:1`)).toHaveText("3");
  await expect(page.getByTestId(`final-${key}-dim-extent:1`)).toHaveText("N/A");
  await expect(page.getByTestId(`final-${key}-dim-written_by`)).toHaveText("AI");
});
