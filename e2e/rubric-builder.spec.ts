import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator } from "@playwright/test";
import { demo, gradingFormShown, signIn } from "./fixtures";
import { addGraders, importAnswers, openStudy } from "./study-setup";

/**
 * The rubric builder, in Chromium: a lead builds a DISCERN-like rubric (three
 * questions on Likert 1-5, a total with bands; Charnock et al. 1999) with two
 * PEMAT-like agree/disagree items that allow N/A and their percent of the
 * applicable items (AHRQ PEMAT-P), sees each problem beside the field it names,
 * exports the rubric as JSON, imports it again unchanged, and creates the study.
 */
const hrefJson = async (link: Locator) => {
  const href = (await link.getAttribute("href"))!;
  expect(href).toMatch(/^data:application\/json;charset=utf-8,/);
  return JSON.parse(decodeURIComponent(href.slice(href.indexOf(",") + 1))) as Record<string, unknown>;
};

test("a lead builds a rubric with bands and a percent of applicable items, exports it, re-imports it unchanged and creates the study", async ({ page }) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  await signIn(page, demo.lead);
  await page.goto("/studies/new");
  await page.getByLabel("Name", { exact: true }).fill(`Leaflet rubric ${stamp}`);
  await page.getByLabel("Repetitions per prompt (N)").fill("1");
  await page.getByRole("button", { name: "Remove S.C.O.R.E." }).click();
  await page.getByRole("button", { name: "Remove SAFE-LLM" }).click();
  await page.getByRole("button", { name: "Build a rubric" }).click();
  const builder = page.getByRole("region", { name: "Rubric builder" });
  const preview = builder.getByRole("region", { name: "Preview of the grader's form" });
  const problems = builder.getByRole("list", { name: "Problems with this rubric" });
  const save = builder.getByRole("button", { name: "Add this rubric" });

  await builder.getByLabel("Rubric name").fill("Leaflet quality");
  await builder.getByLabel("Source (citation, optional)").fill("Adapted from DISCERN (Charnock et al. 1999) and PEMAT-P (Shoemaker et al. 2014)");
  await builder.getByLabel("Instructions to graders (optional)").fill("Read the answer as the patient would.\nGrade what is written, not what is meant.");
  for (const [i, name] of ["Aims clear", "Sources clear", "Balanced", "Plain language", "Visual aids"].entries()) {
    await builder.getByRole("button", { name: "Add a dimension" }).click();
    await builder.getByLabel(`Dimension ${i + 1} name`).fill(name);
  }
  await builder.getByLabel("Aims clear definition (optional)").fill("Does it say what it is for?\nAnd for whom?");
  // One answer per prompt: a dimension over all the answers together is not offered.
  await expect(builder.locator("select[id$='-d0-scope'] option[value='set']")).toBeDisabled();

  // Per-level editing: an example the grader sees when a level is focused.
  await builder.getByText("Levels of Aims clear (5)").click();
  await builder.getByLabel("Aims clear level 5 label").fill("Yes: the aims are explicit");
  await builder.getByLabel("Aims clear level 5 example").fill("States its purpose in the first sentence.");
  const aims = preview.locator("fieldset").first();
  await aims.locator('input[value="5"]').focus();
  await expect(aims).toContainText("Example for 5: States its purpose in the first sentence.");
  await expect(aims).toContainText("Yes: the aims are explicit");
  await expect(preview).toContainText("Grade what is written, not what is meant.");

  // A comment required outside the scale: the problem is beside the field, and the rubric cannot be added.
  const comment = builder.getByLabel("Comment required at or below").nth(2);
  await comment.fill("7");
  await expect(comment).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator(`[id="${await comment.getAttribute("aria-describedby")}"]`)).toHaveText("outside the scale (1-5)");
  // Saving with a problem keeps the builder open, its problems listed.
  await save.click();
  await expect(problems).toContainText("Dimension 3, “comment required at or below”: outside the scale (1-5)");
  await expect(problems).toBeFocused();
  await comment.fill("2");
  await expect(comment).not.toHaveAttribute("aria-invalid");

  // The two PEMAT-like items: disagree (0) / agree (1), N/A allowed.
  for (const i of [3, 4]) {
    await builder.getByLabel("Scale").nth(i).selectOption("yesno");
    await builder.getByLabel("Not applicable allowed").nth(i).check();
  }
  await expect(preview.locator("fieldset").nth(3)).toContainText("Not applicable");

  // The automatic sum (the three Likert questions only: N/A cannot be summed) becomes the lead's own, with bands.
  const totals = builder.getByRole("group", { name: "Totals" });
  await expect(totals).toContainText("Total (3-15): 3 dimensions");
  await totals.getByRole("button", { name: "Edit this total" }).click();
  await totals.getByLabel("Total 1 name").fill("DISCERN-like total");
  // A sum cannot count an item that allows N/A: it is offered greyed out, with why, before the lead ticks it.
  const first = totals.getByRole("group", { name: "Total 1" });
  await expect(first.getByLabel("Plain language", { exact: true })).toBeDisabled();
  await expect(first.getByLabel("Plain language", { exact: true })).toHaveAccessibleDescription("(allows N/A, which a sum cannot count)");
  await expect(first.getByLabel("Aims clear", { exact: true })).toBeEnabled();
  for (let b = 0; b < 3; b++) await totals.getByRole("button", { name: "Add a band to DISCERN-like total" }).click();
  const band = async (j: number, min: number, max: number, label: string) => {
    const row = totals.getByRole("group", { name: `Band ${j} of DISCERN-like total` });
    await row.getByLabel(`Band ${j} min`).fill(String(min));
    await row.getByLabel(`Band ${j} max`).fill(String(max));
    await row.getByLabel(`Band ${j} label`).fill(label);
    return row;
  };
  await band(1, 3, 6, "Poor");
  await band(2, 7, 11, "Fair");
  const third = await band(3, 10, 15, "Good");
  // An overlapping band: named beside the band and in the list, with its JSON path.
  await expect(third).toContainText("bands go from the lowest to the highest, without overlap");
  await expect(third.getByLabel("Band 3 min")).toHaveAttribute("aria-invalid", "true");
  await expect(problems).toContainText("Total 1, band 3: bands go from the lowest to the highest, without overlap");
  await third.getByLabel("Band 3 min").fill("12");
  await expect(third).not.toContainText("overlap");

  // A second total: percent of the applicable items of the two PEMAT-like items.
  await totals.getByRole("button", { name: "Add a total" }).click();
  await totals.getByLabel("Total 2 name").fill("Understandability (%)");
  await totals.getByLabel("Total 2 method").selectOption("percent_applicable");
  const second = totals.getByRole("group", { name: "Total 2" });
  await second.getByLabel("Plain language", { exact: true }).check();
  await second.getByLabel("Visual aids", { exact: true }).check();
  await totals.getByLabel("Headline total").selectOption({ label: "DISCERN-like total" });
  await expect(problems).toHaveCount(0);
  await expect(preview.getByRole("list", { name: "Totals" })).toContainText("DISCERN-like total (headline): Poor 3-6, Fair 7-11, Good 12-15");
  await expect(preview.getByRole("list", { name: "Totals" })).toContainText("Understandability (%)");

  // The builder, open with its preview and problems' markup, passes the same WCAG 2.1 AA scan as every page.
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);

  const built = await hrefJson(builder.getByRole("link", { name: "Download this rubric as JSON" }));
  expect(built).toMatchObject({
    key: "leaflet_quality",
    source: "Adapted from DISCERN (Charnock et al. 1999) and PEMAT-P (Shoemaker et al. 2014)",
    headline: "discern_like_total",
    totals: [
      {
        key: "discern_like_total",
        method: "sum",
        dimensions: ["aims_clear", "sources_clear", "balanced"],
        bands: [
          { min: 3, max: 6, label: "Poor" },
          { min: 7, max: 11, label: "Fair" },
          { min: 12, max: 15, label: "Good" },
        ],
      },
      { key: "understandability", method: "percent_applicable", dimensions: ["plain_language", "visual_aids"] },
    ],
  });
  const dims = built.dimensions as { key: string; definition?: string; requireCommentAtOrBelow?: number; scale: { allowNA?: boolean; levels: { example?: string }[] } }[];
  expect(dims[0].definition).toBe("Does it say what it is for?\nAnd for whom?");
  expect(dims[0].scale.levels[4].example).toBe("States its purpose in the first sentence.");
  expect(dims[2].requireCommentAtOrBelow).toBe(2);
  expect(dims.map((d) => Boolean(d.scale.allowNA))).toEqual([false, false, false, true, true]);
  await save.click();

  const chosen = page.getByRole("list", { name: "Chosen rubrics" }).getByRole("listitem");
  await expect(chosen).toHaveCount(1);
  await expect(chosen).toContainText("5 dimensions (ordinal), DISCERN-like total; Understandability (%)");
  const exported = await hrefJson(page.getByRole("link", { name: "Download Leaflet quality as JSON" }));
  expect(exported).toEqual(built);

  // Re-imported from its JSON, it is the same rubric.
  await page.getByRole("button", { name: "Remove Leaflet quality" }).click();
  await expect(chosen).toHaveCount(0);
  await page.getByLabel("Or paste a rubric document (JSON)").fill(JSON.stringify(exported, null, 2));
  await page.getByRole("button", { name: "Add this rubric" }).click();
  await expect(chosen).toHaveCount(1);
  expect(await hrefJson(page.getByRole("link", { name: "Download Leaflet quality as JSON" }))).toEqual(exported);

  // Editing it keeps its bands, its percent total and its headline.
  await page.getByRole("button", { name: "Edit Leaflet quality" }).click();
  await expect(builder.getByRole("group", { name: "Band 3 of DISCERN-like total" }).getByLabel("Band 3 min")).toHaveValue("12");
  await expect(builder.getByLabel("Total 2 method")).toHaveValue("percent_applicable");
  await expect(builder.getByLabel("Headline total")).toHaveValue("discern_like_total");
  // Renamed, a saved total keeps its key: exports and dashboards name it.
  await builder.getByLabel("Total 1 name").fill("Quality total");
  await expect(builder.getByRole("group", { name: "Total 1" })).toContainText("Key discern_like_total");
  await expect(builder.getByLabel("Headline total")).toHaveValue("discern_like_total");
  await builder.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("button", { name: "Create study" }).click();
  await expect(page).toHaveURL(/\/studies\/[0-9a-f-]{36}$/);
  const studyId = page.url().split("/").pop()!;
  const study = (await (await page.request.get(`/api/v1/studies/${studyId}`)).json()) as { rubricDocuments: unknown[] };
  expect(study.rubricDocuments).toEqual([exported]);
});

/**
 * Issue 31, item 10, with the oncology survey's instrument (N = 2): a new rubric opens without
 * problems; switching "written by" to a nominal scale says why its scope changed and keeps its
 * place; the preview is the grader's form, in the order the grading page then has; a required
 * comment is labelled required; level labels are typed in wide, wrapping boxes.
 */
test("the oncology survey in the builder: no red before typing, a nominal switch explained in place, the preview in the grader's order", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const stamp = Date.now();
  await signIn(page, demo.lead);
  await page.goto("/studies/new");
  await page.getByLabel("Name", { exact: true }).fill(`Oncology survey ${stamp}`);
  await page.getByLabel("Repetitions per prompt (N)").fill("2");
  await page.getByRole("button", { name: "Remove S.C.O.R.E." }).click();
  await page.getByRole("button", { name: "Remove SAFE-LLM" }).click();
  await page.getByRole("button", { name: "Build a rubric" }).click();
  const builder = page.getByRole("region", { name: "Rubric builder" });
  const preview = builder.getByRole("region", { name: "Preview of the grader's form" });
  const problems = builder.getByRole("list", { name: "Problems with this rubric" });

  // Nothing typed yet: nothing is red (the empty rubric's problems wait for a touch or a save).
  await expect(problems).toHaveCount(0);
  await expect(builder.locator('[aria-invalid="true"]')).toHaveCount(0);
  await builder.getByLabel("Rubric name").fill("Oncology survey");
  await builder.getByLabel("Rubric name").blur();
  await expect(problems).toHaveCount(0);

  const names = ["Acceptability", "Likelihood of harm", "Written by", "Efficiency"];
  for (const [i, name] of names.entries()) {
    await builder.getByRole("button", { name: "Add a dimension" }).click();
    await builder.getByLabel(`Dimension ${i + 1} name`).fill(name);
    await builder.locator(`select[id$='-d${i}-scope']`).selectOption("each_answer");
  }
  // Acceptability 1-3, a comment required on "Unacceptable".
  await builder.getByText("Levels of Acceptability (5)").click();
  for (const j of [5, 4]) await builder.getByRole("button", { name: `Remove level ${j} of Acceptability` }).click();
  const labels = ["Unacceptable", "Acceptable with edits: the reply needs changes (a fact, a dose, the tone) before it can be sent to the patient, and the clinician makes them before sending it", "Acceptable as written"];
  for (const [j, label] of labels.entries()) await builder.getByLabel(`Acceptability level ${j + 1} label`).fill(label);
  // A level's label is typed in a wide box that wraps what does not fit on one line.
  const long = builder.getByLabel("Acceptability level 2 label");
  const value = builder.getByLabel("Acceptability level 2 value");
  expect(await long.evaluate((el) => el.tagName)).toBe("TEXTAREA");
  const [labelBox, valueBox] = [(await long.boundingBox())!, (await value.boundingBox())!];
  expect(labelBox.width).toBeGreaterThan(3 * valueBox.width);
  expect(labelBox.width).toBeGreaterThan(240);
  expect(labelBox.height).toBeGreaterThan(valueBox.height); // the 158 characters wrap onto a second line, all of them in view
  expect(await long.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
  await builder.getByLabel("Comment required at or below").first().fill("1");

  // "Written by" becomes nominal: "each answer" is not offered, and the builder says so and why.
  const scope = builder.locator("select[id$='-d2-scope']");
  await builder.getByLabel("Scale").nth(2).selectOption("nominal");
  await expect(scope).toHaveValue("first_answer");
  const written = builder.getByRole("list", { name: "Dimensions" }).getByRole("listitem").nth(2);
  await expect(written.getByRole("status")).toHaveText("Now graded on the first answer (it was each answer): categories are given once per set.");
  await expect(written).toContainText("Not offered: “each answer”: a category is given once per set");
  await expect(scope).toHaveAccessibleDescription(/Not offered: “each answer”/);
  await expect(scope.locator("option[value='each_answer']")).toBeDisabled();

  // The preview is the grader's form: answer 1 keeps the document's order ("written by" third, not first), then answer 2.
  const cells = (where: typeof preview) => where.locator("fieldset[data-cell]").evaluateAll((els) => els.map((e) => e.getAttribute("data-cell")!));
  const expected = [
    "oncology_survey/acceptability/1",
    "oncology_survey/likelihood_of_harm/1",
    "oncology_survey/written_by/1",
    "oncology_survey/efficiency/1",
    "oncology_survey/acceptability/2",
    "oncology_survey/likelihood_of_harm/2",
    "oncology_survey/efficiency/2",
  ];
  await expect.poll(() => cells(preview)).toEqual(expected);
  await expect(preview.locator("[data-answer-part='1']").getByRole("heading", { name: "Answer 1" })).toBeVisible();

  // A level's number and its label never overlap, nor spill out of their box, at the preview's width.
  for (const option of await preview.locator("label.level-option").all()) {
    expect(await option.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    // Inside its row, below the dimension's name (it was squeezed beside the floated legend, past the row's edge).
    expect(
      await option.evaluate((el) => {
        const row = el.closest("fieldset")!.getBoundingClientRect();
        const legend = el.closest("fieldset")!.querySelector("legend")!.getBoundingClientRect();
        const box = el.getBoundingClientRect();
        return box.left >= row.left && box.right <= row.right + 0.5 && box.top >= legend.bottom;
      }),
    ).toBe(true);
    const parts = option.locator(".level-value, .level-label");
    if ((await parts.count()) < 2) continue;
    const [a, b] = [(await parts.nth(0).boundingBox())!, (await parts.nth(1).boundingBox())!];
    const apart = a.x + a.width <= b.x + 0.5 || b.x + b.width <= a.x + 0.5 || a.y + a.height <= b.y + 0.5 || b.y + b.height <= a.y + 0.5;
    expect(apart, `${await option.textContent()}`).toBe(true);
  }

  // A required comment is labelled required (never "optional"), and opens by itself.
  const acceptability1 = preview.locator("fieldset[data-cell='oncology_survey/acceptability/1']");
  await acceptability1.getByRole("radio", { name: "1 — Unacceptable" }).check({ force: true });
  await expect(acceptability1.getByRole("textbox", { name: "Comment on Acceptability (Answer 1), required" })).toBeVisible();
  await expect(acceptability1).not.toContainText(/optional/i);
  await expect(preview.locator("fieldset[data-cell='oncology_survey/acceptability/2']")).toContainText("Required for a score of 1 or below");

  await expect(problems).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  await builder.getByRole("button", { name: "Add this rubric" }).click();
  await page.getByRole("button", { name: "Create study" }).click();
  await expect(page).toHaveURL(/\/studies\/[0-9a-f-]{36}$/);

  // The grading page then has the preview's order.
  const tabs = page.getByRole("navigation", { name: "Study sections" });
  await tabs.getByRole("link", { name: "Import" }).click();
  const csv = [
    "item_id,specialty,question,reference_answer,model,repetition,response",
    `ONC-1,Oncology,"Can I take ibuprofen with my chemo?","Ask your team.",Drafter,1,"Please ask your oncology team first."`,
    `ONC-1,Oncology,"Can I take ibuprofen with my chemo?","Ask your team.",Drafter,2,"Check with your care team before taking it."`,
  ].join("\n");
  await importAnswers(page, `${csv}\n`, 2);
  const graders = await addGraders(page, 2, (i) => ({ email: `onc-${stamp}-${i}@hospital.example`, name: `Dr. Onc ${i}` }));
  await openStudy(page);
  await tabs.getByRole("link", { name: "Assignments" }).click();
  await page.getByRole("button", { name: "Assign graders" }).click();
  await expect(page.getByRole("status").filter({ hasText: "new assignments" })).toBeVisible();

  const context = await browser.newContext();
  const grader = await context.newPage();
  await signIn(grader, graders[0]);
  const { assignments } = (await (await grader.request.get("/api/v1/me/assignments")).json()) as { assignments: { id: string }[] };
  await grader.goto(`/grade/${assignments[0].id}`);
  await gradingFormShown(grader);
  await expect.poll(() => cells(grader.locator("body"))).toEqual(expected);
  const field = grader.locator("fieldset[data-cell='oncology_survey/acceptability/1']");
  await field.getByRole("radio", { name: "1 — Unacceptable" }).check({ force: true });
  await expect(field.getByRole("textbox", { name: "Comment on Acceptability (Answer 1), required" })).toBeVisible();
  // Submitted without the comment: the problem beside the field says what to do, without repeating the field's name.
  await grader.getByRole("button", { name: "Submit grades" }).first().click();
  await expect(field).toContainText("Say why in a comment when scoring 1 or below");
  await expect(field.locator("p.text-destructive")).not.toContainText("Acceptability");
  await context.close();
});
