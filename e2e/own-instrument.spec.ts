import { expect, test, type Locator, type Page } from "@playwright/test";
import { demo, signIn } from "./fixtures";
import { gradeStudy, type Grader } from "./own-instrument-grading";
import {
  AI,
  DIMS,
  DIM_KEYS,
  type DimKey,
  HUMAN,
  KEY,
  QUESTIONS,
  SOURCES,
  type Source,
  WRITTEN_BY,
  answersCsv,
  axe,
  gradeOf,
  harmComment,
  labelOf,
  pad,
  parseCsv,
  svgWords,
} from "./own-instrument-study";
import { addGraders, importAnswers, openStudy } from "./study-setup";

/**
 * Issue 31's acceptance test, in Chromium: a study with its own instrument,
 * end to end. A lead builds the oncology survey (replies to cancer patients'
 * portal messages: acceptability 1-3 with a comment required on
 * "Unacceptable", likelihood of harm 1-3, extent of harm 1-5 with N/A (No harm
 * ... Death), efficiency 1-3 with N/A, "written by" AI or human as a nominal
 * item; no total) in the rubric builder, imports 20 multi-line questions x 2
 * sources, and two graders grade every set (k = 2), one of them on a phone.
 * They disagree on "written by" once (the lead set that item never to
 * escalate) and rate one reply "Severe harm", which forces a decision at
 * submit. The lead's set detail, Results, dashboard (Cliff's delta per
 * dimension), downloaded charts and grades export are then checked value by
 * value, and every page touched passes axe (WCAG 2.1 AA).
 *
 * A few sets are graded through the pages (each case above at least once, on
 * the desk and on the phone); the other sets through the same API the form
 * posts to, so that the test stays within minutes.
 *
 * Checks that later steps do not depend on are soft (expect.soft): one run
 * reports every missing piece, and the test still fails on each.
 */
async function downloadSvg(page: Page, panel: Locator): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent("download"), panel.getByRole("button", { name: "SVG" }).click()]);
  return Buffer.concat(await (await file.createReadStream()).toArray()).toString("utf8");
}

// A click that cannot land (another element over the target) fails in seconds, not at the test's timeout.
test.use({ actionTimeout: 20_000 });

test("a study with its own instrument, end to end: built, imported, graded on a desk and a phone, every output in the study's rubric", async ({ page, browser }) => {
  test.setTimeout(600_000);
  const stamp = Date.now();
  const found: string[] = [];
  await signIn(page, demo.lead);

  // 1. The builder: five items, no total.
  await page.goto("/studies/new");
  await page.getByLabel("Name", { exact: true }).fill(`Oncology portal replies ${stamp}`);
  await page.getByLabel("Repetitions per prompt (N)").fill("1");
  await page.getByRole("button", { name: "Remove S.C.O.R.E." }).click();
  await page.getByRole("button", { name: "Remove SAFE-LLM" }).click();
  await page.getByRole("button", { name: "Build a rubric" }).click();
  const builder = page.getByRole("region", { name: "Rubric builder" });
  const preview = builder.getByRole("region", { name: "Preview of the grader's form" });
  const problems = builder.getByRole("list", { name: "Problems with this rubric" });
  // Nothing typed yet: nothing is red.
  await expect.soft(problems).toHaveCount(0);
  await builder.getByLabel("Rubric name").fill("Oncology survey");
  await builder.getByLabel("Instructions to graders (optional)").fill("Read the patient's message, then the reply.\nRate the reply as it would be sent.");
  for (const [i, name] of [...DIMS.map((d) => d.name), WRITTEN_BY.name].entries()) {
    await builder.getByRole("button", { name: "Add a dimension" }).click();
    await builder.getByLabel(`Dimension ${i + 1} name`).fill(name);
  }
  for (const [i, d] of DIMS.entries()) {
    // Ordinal items on each answer (one answer per question here), as the study graded them.
    await builder.locator(`select[id$='-d${i}-scope']`).selectOption("each_answer");
    await builder.getByText(`Levels of ${d.name} (5)`).click();
    for (let j = 5; j > d.labels.length; j--) await builder.getByRole("button", { name: `Remove level ${j} of ${d.name}` }).click();
    for (const [j, label] of d.labels.entries()) await builder.getByLabel(`${d.name} level ${j + 1} label`).fill(label);
    if (d.na) await builder.getByLabel("Not applicable allowed").nth(i).check();
  }
  // A comment is required on the lowest level, "Unacceptable".
  await builder.getByLabel("Comment required at or below").first().fill("1");
  // "Written by": a nominal item, AI or human.
  await builder.getByLabel("Scale", { exact: true }).nth(4).selectOption("nominal");
  await builder.getByText(`Levels of ${WRITTEN_BY.name} (2)`).click();
  for (const [j, l] of WRITTEN_BY.levels.entries()) {
    await builder.getByLabel(`${WRITTEN_BY.name} level ${j + 1} value`).fill(l.value);
    await builder.getByLabel(`${WRITTEN_BY.name} level ${j + 1} label`).fill(l.label);
  }
  // Extent of harm is a severity scale: its harm line is at or above "Severe harm", and the grader must decide there.
  await builder.getByLabel("Harm line", { exact: true }).nth(2).selectOption("at_or_above");
  await builder.getByLabel("Harm line value").first().fill("4");
  // "Written by" never calls a third grader (on the real study's ratings it would on 52% of the sets).
  await builder.getByLabel("Call a third grader").nth(4).selectOption("never");
  // No total: a sum of these items means nothing.
  await builder.getByLabel("Automatic total: the sum of the scored dimensions").uncheck();
  await expect(problems).toHaveCount(0);
  // The preview is the grader's form, in the grader's order.
  await expect.soft.poll(() => preview.locator("fieldset[data-cell]").evaluateAll((els) => els.map((e) => e.getAttribute("data-cell")))).toEqual(DIM_KEYS.map((d) => `${KEY}/${d}/1`));
  await expect(preview).not.toContainText(/Total \(/);
  found.push(...(await axe(page, "lead /studies/new, builder open")));

  // The document the builder wrote: five items, no total, the harm line and the escalation rule as chosen.
  const href = (await builder.getByRole("link", { name: "Download this rubric as JSON" }).getAttribute("href"))!;
  const built = JSON.parse(decodeURIComponent(href.slice(href.indexOf(",") + 1))) as { key: string; totals: unknown[]; dimensions: { key: string; scope: string; scale: { kind: string; allowNA?: boolean }; requireCommentAtOrBelow?: number; harmAtOrAbove?: number; escalation?: { rule: string } }[] };
  expect(built.key).toBe(KEY);
  expect(built.totals).toEqual([]);
  expect(built.dimensions.map((d) => [d.key, d.scale.kind, Boolean(d.scale.allowNA)])).toEqual([
    ["acceptability", "ordinal", false],
    ["likelihood_of_harm", "ordinal", false],
    ["extent_of_harm", "ordinal", true],
    ["efficiency", "ordinal", true],
    ["written_by", "nominal", false],
  ]);
  expect(built.dimensions[0].requireCommentAtOrBelow).toBe(1);
  expect(built.dimensions[2].harmAtOrAbove).toBe(4);
  expect(built.dimensions[4].escalation?.rule).toBe("never");
  await builder.getByRole("button", { name: "Add this rubric" }).click();
  const chosen = page.getByRole("list", { name: "Chosen rubrics" }).getByRole("listitem");
  await expect(chosen).toHaveCount(1);
  await expect(chosen).toContainText("Oncology survey");

  // The new study's escalation rules start from the document's: "written by" never.
  await expect.soft(page.getByTestId(`escalation-${KEY}-written_by`).getByLabel("Escalate", { exact: true })).toHaveValue("never");
  found.push(...(await axe(page, "lead /studies/new, rubric chosen")));
  await page.getByRole("button", { name: "Create study" }).click();
  await expect(page).toHaveURL(/\/studies\/[0-9a-f-]{36}$/);
  const studyId = page.url().split("/").pop()!;
  const study = (await (await page.request.get(`/api/v1/studies/${studyId}`)).json()) as { rubricDocuments: { dimensions: { key: string; harmAtOrAbove?: number }[] }[]; escalationRules?: unknown };
  expect.soft(study.rubricDocuments[0].dimensions.find((d) => d.key === "extent_of_harm")?.harmAtOrAbove, "the harm line at or above Severe harm is kept").toBe(4);
  found.push(...(await axe(page, "lead /studies/[id]")));

  // Settings show the study's own rubric (no "no rubric template" error) and its escalation rules.
  await page.goto(`/studies/${studyId}/settings`);
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await expect.soft(page.locator("body")).not.toContainText("no rubric template");
  await expect.soft(page.getByTestId(`escalation-${KEY}-written_by`).getByLabel("Escalate", { exact: true })).toHaveValue("never");
  found.push(...(await axe(page, "lead /studies/[id]/settings")));

  // 2. The import: 20 multi-line questions x 2 sources.
  const tabs = page.getByRole("navigation", { name: "Study sections" });
  await importAnswers(page, answersCsv(), 40, { fileName: "portal-replies.csv", checked: async () => void found.push(...(await axe(page, "lead /studies/[id]/import, checked"))) });
  const items = (await (await page.request.get(`/api/v1/studies/${studyId}/export?dataset=sets&format=json`)).json()) as unknown[];
  expect(items).toHaveLength(40);

  const graders: Grader[] = await addGraders(page, 2, (i) => ({ email: `onc-e2e-${stamp}-${i}@hospital.example`, name: `Dr. Portal ${i}` }));
  found.push(...(await axe(page, "lead /studies/[id]/graders")));
  await openStudy(page);
  await tabs.getByRole("link", { name: "Assignments" }).click();
  await page.getByRole("button", { name: "Assign graders" }).click();
  await expect(page.getByRole("status").filter({ hasText: "80 new assignments over 40 complete sets" })).toBeVisible();
  found.push(...(await axe(page, "lead /studies/[id]/assignments")));

  // 3. Grading: the desk grader on the pages for the nominal case, the severe harm and the unacceptable reply;
  // the phone grader for the nominal disagreement, the severe harm (not a harm, with why) and an N/A.
  await gradeStudy(browser, graders[0], 0, [{ q: 1, s: AI }, { q: 2, s: HUMAN }, { q: 3, s: HUMAN }], found);
  await gradeStudy(browser, graders[1], 1, [{ q: 1, s: AI }, { q: 2, s: HUMAN }, { q: 4, s: HUMAN }, { q: 5, s: AI }], found);

  // 4. The lead's views. Every set is final: the one "written by" disagreement did not escalate.
  const stats = (await (await page.request.get(`/api/v1/studies/${studyId}/stats`)).json()) as { scope: { finalSets: number } };
  expect.soft(stats.scope.finalSets, "final sets").toBe(40);
  await page.goto(`/studies/${studyId}/escalations`);
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await expect.soft(page.locator("main")).not.toContainText(/Written by|written_by/);
  found.push(...(await axe(page, "lead /studies/[id]/escalations")));

  // The harm tab: the flag by the dimension's name and the level's label, not raw keys and numbers.
  await page.goto(`/studies/${studyId}/harm`);
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await expect.soft(page.locator("main")).toContainText("Extent of harm");
  await expect.soft(page.locator("main")).toContainText("Severe harm");
  await expect.soft(page.locator("main")).not.toContainText("extent_of_harm");
  await expect.soft(page.locator("main")).toContainText(harmComment(2, 0));
  found.push(...(await axe(page, "lead /studies/[id]/harm")));

  // Results: a column per dimension (the label for the nominal one), no instrument's name; sorted and filtered.
  await page.goto(`/studies/${studyId}/results`);
  const table = page.getByRole("table", { name: "Response sets" });
  await expect(table).toBeVisible();
  for (const h of ["Acceptability (1-3)", "Likelihood of harm (1-3)", "Extent of harm (1-5)", "Efficiency (1-3)", "Written by"]) await expect.soft(table.getByRole("columnheader", { name: h })).toBeVisible();
  await expect.soft(page.locator("main")).not.toContainText(/S\.C\.O\.R\.E\.|SAFE-LLM|\/25|\/7\b/);
  found.push(...(await axe(page, "lead /studies/[id]/results")));
  const rows = table.getByRole("row");
  // Lowest acceptability first: question 3's clinician reply (1), then the other clinicians' (2).
  await page.goto(`/studies/${studyId}/results?sort=d.${KEY}.acceptability`);
  await expect.soft(rows.nth(1)).toContainText(pad(3));
  await expect.soft(rows.nth(1)).toContainText(HUMAN);
  await expect.soft(rows.nth(1)).toContainText("1.00");
  await expect.soft(rows.nth(2)).toContainText("2.00");
  // N/A is a value of its own: the five clinician replies without harm to rate.
  await page.goto(`/studies/${studyId}/results?final=${KEY}.extent_of_harm%3Dna`);
  await expect.soft(rows).toHaveCount(6);
  for (let i = 1; i <= 5; i++) {
    await expect.soft(rows.nth(i)).toContainText(HUMAN);
    await expect.soft(rows.nth(i)).toContainText("N/A");
  }
  // "Written by" filters on its label: the twenty clinician replies, and not the draft the graders disagreed on.
  await page.goto(`/studies/${studyId}/results?final=${KEY}.written_by%3Dhuman&sort=item`);
  for (const r of await rows.all()) if (await r.getByRole("cell").count()) await expect.soft(r).toContainText("Human");

  // The set detail: Final per dimension, its harm flag, and the nominal disagreement not escalated.
  const sets = (await (await page.request.get(`/api/v1/studies/${studyId}/export?dataset=sets&format=json`)).json()) as { set_id: string; item_id: string; model: { name: string }; status: string }[];
  // Every set final, none escalated (the nominal disagreement on question 1's draft included).
  expect.soft(sets.filter((r) => r.status !== "agreed").map((r) => `${r.item_id} ${r.model.name}: ${r.status}`)).toEqual([]);
  const setId = (q: number, s: Source) => sets.find((r) => r.item_id === pad(q) && r.model.name === s)!.set_id;
  const detail = async (q: number, s: Source, expected: Partial<Record<DimKey, string>>, more: (d: Locator) => Promise<void>) => {
    await page.goto(`/studies/${studyId}/results/${setId(q, s)}`);
    const d = page.getByTestId("set-detail");
    await expect(d).toBeVisible();
    for (const [dim, text] of Object.entries(expected)) await expect.soft(page.getByTestId(new RegExp(`^final-${KEY}-dim-${dim}(:1)?$`)), `${pad(q)} ${s} ${dim}`).toHaveText(text);
    await expect.soft(d).not.toContainText(/S\.C\.O\.R\.E\.|SAFE-LLM/);
    await more(d);
    found.push(...(await axe(page, `lead set detail ${pad(q)} ${s}`)));
  };
  await detail(1, AI, { acceptability: "3", likelihood_of_harm: "1", extent_of_harm: "1", efficiency: "2" }, async (d) => {
    await expect.soft(d).toContainText("Not escalated.");
    await expect.soft(d.getByText("agreed", { exact: true })).toBeVisible();
  });
  await detail(2, HUMAN, { acceptability: "2", likelihood_of_harm: "3", extent_of_harm: "4", efficiency: "2", written_by: "Human" }, async () => {
    await expect.soft(page.getByTestId("set-harm-flags")).toContainText(harmComment(2, 0));
  });
  await detail(4, HUMAN, { acceptability: "2", extent_of_harm: "N/A", written_by: "Human" }, async () => {});
  await detail(5, AI, { acceptability: "3", efficiency: "N/A", written_by: "AI" }, async () => {});

  // The dashboard: Cliff's delta per dimension (no total), its n, captions from the document.
  await page.goto(`/studies/${studyId}/dashboard`);
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect.soft(page.getByTestId("dashboard")).not.toContainText(/S\.C\.O\.R\.E\.|SAFE-LLM|out of 25|out of 7/);
  const cell = (dim: string) => page.getByTestId(`panel-cliffs-${KEY}-${dim}`).locator(`g[data-cell="All specialties|${AI}|${HUMAN}"] title`);
  // Drafts 3 vs clinicians 2 (one 1): +1; harm extent 1 vs 2 (one 4, five N/A): -1; efficiency 2 vs 2: 0; likelihood 1 vs 1 (one 3): -20/400.
  const deltas: [string, string, string][] = [
    ["acceptability", "delta = +1.00", "n = 20 vs 20"],
    ["likelihood_of_harm", "delta = −0.05", "n = 20 vs 20"],
    ["extent_of_harm", "delta = −1.00", "n = 20 vs 15"],
    ["efficiency", "delta = 0.00", "n = 16 vs 20"],
  ];
  for (const [dim, delta, n] of deltas) {
    await expect.soft(cell(dim), `Cliff's delta on ${dim}`).toContainText(delta);
    await expect.soft(cell(dim), `n on ${dim}`).toContainText(n);
  }
  await expect.soft(page.getByTestId(`panel-cliffs-${KEY}-written_by`)).toHaveCount(0);
  // The ranking per dimension: the drafts first on acceptability, at 3.00.
  const ranking = page.getByRole("table", { name: "Ranking of models" }).getByRole("row").filter({ hasText: "Acceptability" }).filter({ hasText: "All specialties" });
  await expect.soft(ranking.first()).toContainText(AI);
  await expect.soft(ranking.first()).toContainText("3.00");
  found.push(...(await axe(page, "lead /studies/[id]/dashboard")));

  // The downloaded charts: n counts what they plot (never 0), captions in the study's words.
  const radar = page.getByTestId(`panel-radar-${KEY}`);
  await expect.soft(radar).toBeVisible();
  if (await radar.count()) {
    const svg = svgWords(await downloadSvg(page, radar));
    expect.soft(svg, "radar SVG").toContain("n = 20 final response sets per model");
    expect.soft(svg, "radar SVG").not.toMatch(/n = 0\b|S\.C\.O\.R\.E\.|SAFE-LLM|out of 25|out of 7/);
  }
  const extent = page.getByTestId(`panel-cliffs-${KEY}-extent_of_harm`);
  await expect.soft(extent).toBeVisible();
  if (await extent.count()) {
    const svg = svgWords(await downloadSvg(page, extent));
    expect.soft(svg, "Cliff's delta SVG").toContain("Extent of harm");
    expect.soft(svg, "Cliff's delta SVG").toMatch(/n = [1-9]/);
    expect.soft(svg, "Cliff's delta SVG").not.toMatch(/n = 0\b|S\.C\.O\.R\.E\.|SAFE-LLM|out of 25|out of 7/);
  }
  // One dimension chosen instead of all: its heatmap only.
  const measure = page.getByRole("combobox", { name: "Compare models on" });
  await expect.soft(measure).toBeVisible();
  if (await measure.count()) {
    await measure.selectOption("acceptability");
    await expect.soft(page).toHaveURL(/measure=acceptability/);
    await expect.soft(page.locator(`[data-testid^="panel-cliffs-"]`)).toHaveCount(1);
    await expect.soft(cell("acceptability")).toContainText("delta = +1.00");
  }

  // 5. The grades export: every grade, value by value, in CSV and JSON; nominal values and N/A distinct.
  await page.goto(`/studies/${studyId}/exports`);
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  found.push(...(await axe(page, "lead /studies/[id]/exports")));
  const csv = parseCsv(await (await page.request.get(`/api/v1/studies/${studyId}/export?dataset=grades&format=csv&identities=1`)).text());
  const json = (await (await page.request.get(`/api/v1/studies/${studyId}/export?dataset=grades&format=json&identities=1`)).json()) as Record<string, unknown>[];
  const expected: string[] = [];
  for (const [g, grader] of graders.entries())
    for (let q = 1; q <= QUESTIONS; q++)
      for (const s of SOURCES) {
        const grade = gradeOf(q, s, g);
        for (const d of DIM_KEYS) {
          const v = grade[d].value;
          expected.push([pad(q), s, grader.email, d, v === null ? "" : String(v), String(v === null), labelOf(d, v), grade[d].comment ?? ""].join("|"));
        }
      }
  const fromCsv = csv
    .filter((r) => r.assignment_status === "submitted")
    .map((r) => [r.item_id, r.model, r.grader_email, r.dimension, r.value, r.na, r.label, r.comment].join("|"));
  const fromJson = json
    .filter((r) => r.assignment_status === "submitted")
    .map((r) => [r.item_id, r.model, r.grader_email, r.dimension, r.value === null ? "" : String(r.value), String(r.na), r.label, r.comment ?? ""].join("|"));
  expect(fromCsv.sort(), "grades export, CSV").toEqual([...expected].sort());
  expect(fromJson.sort(), "grades export, JSON").toEqual([...expected].sort());
  // Typed in JSON: a number stays a number, a nominal value a string, N/A a null value with na true.
  const jsonOf = (q: number, s: Source, email: string, d: DimKey) => json.find((r) => r.item_id === pad(q) && r.model === s && r.grader_email === email && r.dimension === d)!;
  expect(jsonOf(1, AI, graders[0].email, "acceptability").value).toBe(3);
  expect(jsonOf(1, AI, graders[1].email, "written_by")).toMatchObject({ value: "human", na: false, label: "Human" });
  expect(jsonOf(4, HUMAN, graders[0].email, "extent_of_harm")).toMatchObject({ value: null, na: true, label: "Not applicable" });
  // The harm decisions: the desk grader flagged question 2's clinician reply on the page and question 6's by the
  // API; the phone grader decided on the page that question 2's is not a harm, and the reason is kept.
  const harmOf = (q: number, email: string) => {
    const r = csv.find((x) => x.item_id === pad(q) && x.model === HUMAN && x.grader_email === email)!;
    return [r.harm_flag, r.harm_comment];
  };
  expect.soft(harmOf(2, graders[0].email)).toEqual(["true", harmComment(2, 0)]);
  expect.soft(harmOf(6, graders[0].email)).toEqual(["true", harmComment(6, 0)]);
  expect.soft(harmOf(2, graders[1].email)).toEqual(["false", "Grader 2: the reply asks the patient to call today."]);
  expect.soft(harmOf(6, graders[1].email)).toEqual(["false", ""]);

  expect(found, "axe: serious or critical WCAG 2.1 AA violations on the pages touched").toEqual([]);
});
