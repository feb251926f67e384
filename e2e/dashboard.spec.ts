import { expect, test, type Page } from "@playwright/test";
import { demo, signIn } from "./fixtures";
import { gradedSurveyStudy, SOURCES, SURVEY } from "./survey-study";

/**
 * The study dashboard as a lead sees it: on the demo's closed, fully graded
 * pilot (slug demo-pilot-graded, seeded by the demo) every chart renders with
 * its table and downloads, with no console error; on the open demo study, which
 * nobody has graded yet, the score panels say there is not enough data.
 */
const PILOT_SLUG = "demo-pilot-graded";
const OPEN_SLUG = "demo-clinical-qa";

/** Console errors and uncaught exceptions of the page. The app ships no favicon yet: its 404 is not the dashboard's. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && !/favicon\.ico/.test(m.location().url)) errors.push(`${m.text()} (${m.location().url})`);
  });
  page.on("pageerror", (e) => errors.push(`uncaught: ${e.message}`));
  return errors;
}

/**
 * signIn (fixtures.ts) clicks as soon as the form is there; on a busy machine that can be
 * before React has hydrated it, and the browser then submits it as a plain GET. Loading the
 * sign-in page once first (its scripts then come from the cache) avoids that race.
 */
async function signInAs(page: Page, user: { email: string; password: string }) {
  await page.goto("/login");
  await page.waitForLoadState("networkidle");
  await signIn(page, user);
}

async function studyIdBySlug(page: Page, slug: string): Promise<string | null> {
  const res = await page.request.get(`/api/v1/studies?q=${encodeURIComponent(slug)}&pageSize=100`);
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { studies: { id: string; slug: string }[] };
  return body.studies.find((s) => s.slug === slug)?.id ?? null;
}

/** A downloaded SVG's words, in order, one space apart: its title and subtitle wrap over several text elements. */
const svgWords = (svg: string) => svg.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

/** A screenshot kept with the test's results (its output folder and the report). */
async function attach(page: Page, name: string, locator?: ReturnType<Page["getByTestId"]>) {
  const path = test.info().outputPath(`${name}.png`);
  if (locator) await locator.screenshot({ path });
  else await page.screenshot({ path, fullPage: true });
  await test.info().attach(name, { path, contentType: "image/png" });
}

test.describe("study dashboard", () => {
  test("the lead opens the graded pilot's dashboard: every chart renders with its numbers, downloads work, no console error", async ({ page }) => {
    test.setTimeout(180_000);
    const errors = collectErrors(page);
    await signInAs(page, demo.lead);
    const id = await studyIdBySlug(page, PILOT_SLUG);
    expect(id, `the demo seeds the graded pilot "${PILOT_SLUG}"`).not.toBeNull();
    const { study } = (await (await page.request.get(`/api/v1/studies/${id}/stats`)).json()) as { study: { rubricDocuments: { key: string; name: string }[] } };
    const scoreName = study.rubricDocuments.find((d) => d.key.toLowerCase() === "score")!.name;

    await page.goto(`/studies/${id}/dashboard`);
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    const panels = ["radar-score", "radar-safe_llm", "alpha", "cliffs-score", "cliffs-safe_llm", "agreement", "ranking", "progress"];
    for (const p of panels) {
      const panel = page.getByTestId(`panel-${p}`);
      await expect(panel, p).toBeVisible();
      await expect(panel.getByTestId("not-enough-data"), `${p} has data`).toHaveCount(0);
      await expect(panel.locator("svg").first(), `${p} draws a chart`).toBeVisible();
      await expect(panel.locator("table"), `${p} shows its numbers`).toBeVisible();
      await expect(panel.getByRole("button", { name: "CSV" })).toBeVisible();
    }
    // Recharts drew its shapes: radar polygons, alpha bars with CI whiskers, heatmap cells with their CI on hover.
    await expect(page.getByTestId("panel-radar-score").locator(".recharts-radar-polygon")).toHaveCount(3);
    await expect(page.getByTestId("panel-alpha").locator(".recharts-bar-rectangle").first()).toBeVisible();
    await expect(page.getByTestId("panel-alpha").locator(".recharts-errorBar").first()).toBeAttached();
    await expect(page.getByTestId("panel-alpha")).toContainText("0.7 acceptable");
    await expect(page.getByTestId("panel-alpha")).toContainText("not agreement between graders");
    const cell = page.getByTestId("panel-cliffs-score").locator("g[data-cell]").first();
    await expect(cell.locator("title")).toContainText(/bootstrap CI \[/);
    await expect(page.getByTestId("panel-cliffs-score")).toContainText("positive (blue) = the row model scores higher");
    await expect(page.getByRole("table", { name: "Inter-rater agreement per dimension" }).getByRole("row")).toHaveCount(11);
    await expect(page.getByTestId("panel-agreement")).toContainText("Escalation rate");

    await attach(page, "dashboard-full");
    for (const p of panels) await attach(page, `panel-${p}`, page.getByTestId(`panel-${p}`));

    // The ranking sorts on the client.
    const ranking = page.getByRole("table", { name: "Ranking of models" });
    await ranking.getByRole("button", { name: "Mean ± SD" }).click();
    await expect(ranking.getByRole("columnheader", { name: /Mean ± SD/ })).toHaveAttribute("aria-sort", "descending");

    // Downloads: the CSV of a table and the SVG of a chart.
    const [csv] = await Promise.all([page.waitForEvent("download"), page.getByTestId("panel-alpha").getByRole("button", { name: "CSV" }).click()]);
    expect(csv.suggestedFilename()).toMatch(/^demo-pilot-graded-alpha.*\.csv$/);
    const csvText = await (await csv.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"));
    expect(csvText).toContain("Rubric,Specialty,Cronbach's alpha,95% CI low,95% CI high");
    const [svg] = await Promise.all([page.waitForEvent("download"), page.getByTestId("panel-radar-score").getByRole("button", { name: "SVG" }).click()]);
    expect(svg.suggestedFilename()).toMatch(/\.svg$/);
    const svgText = await (await svg.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"));
    expect(svgText).toMatch(/^<\?xml/);
    expect(svgText).toContain("<svg");
    expect(svgText).toContain(`${scoreName} profile`);
    // n counts what the radar plots: never 0 on a graded study (the subtitle wraps: read its words).
    expect(svgWords(svgText)).toMatch(/n = [1-9]\d* final response sets per model/);

    // Filters live in the URL.
    await page.getByRole("combobox", { name: "Specialty" }).selectOption("Medication");
    await expect(page).toHaveURL(/specialty=Medication/);
    await expect(page.getByTestId("panel-radar-score").locator(".recharts-radar-polygon")).toHaveCount(3);
    await page.getByRole("combobox", { name: "Rubric" }).selectOption("SCORE");
    await expect(page).toHaveURL(/rubric=SCORE/);
    await expect(page.getByTestId("panel-radar-safe_llm")).toHaveCount(0);
    await attach(page, "dashboard-medication-score");

    expect(errors, errors.join("\n")).toEqual([]);
  });

  test("an ungraded study shows clear 'not enough data' states instead of charts", async ({ page }) => {
    const errors = collectErrors(page);
    await signInAs(page, demo.lead);
    const id = await studyIdBySlug(page, OPEN_SLUG);
    expect(id, `the demo seeds "${OPEN_SLUG}"`).not.toBeNull();
    await page.goto(`/studies/${id}/dashboard`);
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    const stats = await (await page.request.get(`/api/v1/studies/${id}/stats`)).json();
    // The open demo study is graded by the grading specs, which run on their own assignments (no set final).
    expect(stats.scope.finalSets, "no set of the open demo study is final").toBe(0);
    for (const p of ["radar-score", "alpha", "cliffs-score", "ranking"]) {
      await expect(page.getByTestId(`panel-${p}`).getByTestId("not-enough-data")).toContainText("Not enough data yet");
      await expect(page.getByTestId(`panel-${p}`).locator(".recharts-surface")).toHaveCount(0);
    }
    await expect(page.getByTestId("panel-progress").getByTestId("not-enough-data")).toHaveCount(0);
    await attach(page, "dashboard-empty");
    expect(errors, errors.join("\n")).toEqual([]);
  });

  test("a rubric without a total: Cliff's delta, ranking and radar per dimension, captions and scales from the document, n in every figure", async ({ page, browser }) => {
    test.setTimeout(240_000);
    const errors = collectErrors(page);
    await signInAs(page, demo.lead);
    const id = await gradedSurveyStudy(page, browser);
    await page.goto(`/studies/${id}/dashboard`);
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    const key = SURVEY.key;
    const [model, clinician] = SOURCES;

    // The radar: mixed scales, each from its lowest value at the centre (never "0%"), the document's ranges in the caption.
    const radar = page.getByTestId(`panel-radar-${key}`);
    await expect(radar.locator(".recharts-radar-polygon")).toHaveCount(2);
    await expect(radar).toContainText("Acceptability 1-3");
    await expect(radar).toContainText("Extent of harm 1-5");
    await expect(radar).toContainText("the centre is each scale's lowest value");
    await expect(radar.locator(".recharts-polar-radius-axis-tick")).toContainText(["lowest", "25%", "50%", "75%", "highest"]);

    // Cliff's delta per dimension: one heatmap each, with n counting the sets that have a value (N/A left out).
    for (const d of ["acceptability", "likelihood", "extent", "efficiency"]) {
      const panel = page.getByTestId(`panel-cliffs-${key}-${d}`);
      await expect(panel, d).toBeVisible();
      await expect(panel.getByTestId("not-enough-data"), d).toHaveCount(0);
    }
    await expect(page.getByTestId(`panel-cliffs-${key}-written_by`)).toHaveCount(0);
    const acc = page.getByTestId(`panel-cliffs-${key}-acceptability`);
    await expect(acc.locator(`g[data-cell="All specialties|${model}|${clinician}"] title`)).toContainText("delta = +1.00, large");
    await expect(acc.locator(`g[data-cell="All specialties|${model}|${clinician}"] title`)).toContainText("n = 4 vs 4");
    const extent = page.getByTestId(`panel-cliffs-${key}-extent`);
    await expect(extent.locator(`g[data-cell="All specialties|${model}|${clinician}"] title`)).toContainText("delta = −1.00");
    await expect(extent.locator(`g[data-cell="All specialties|${model}|${clinician}"] title`)).toContainText("n = 3 vs 4");
    await expect(extent).toContainText("Extent of harm 1-5");

    // The downloaded figure says what it plots and how many sets: never "n = 0", no other instrument's name or range.
    const [svg] = await Promise.all([page.waitForEvent("download"), extent.getByRole("button", { name: "SVG" }).click()]);
    const svgText = Buffer.concat(await (await svg.createReadStream()).toArray()).toString("utf8");
    expect(svgWords(svgText)).toContain("Extent of harm (1-5)");
    expect(svgWords(svgText)).toContain("n = 3-4 final response sets per model and specialty");
    expect(svgWords(svgText)).not.toMatch(/n = 0\b|S\.C\.O\.R\.E\.|SAFE-LLM|out of 25|out of 7/);
    const [radarSvg] = await Promise.all([page.waitForEvent("download"), radar.getByRole("button", { name: "SVG" }).click()]);
    expect(svgWords(Buffer.concat(await (await radarSvg.createReadStream()).toArray()).toString("utf8"))).toContain("n = 4 final response sets per model");

    // The ranking per dimension, each mean on its own scale.
    const ranking = page.getByTestId("panel-ranking");
    await expect(ranking.getByTestId("not-enough-data")).toHaveCount(0);
    const rows = page.getByRole("table", { name: "Ranking of models" }).getByRole("row");
    await expect(rows.filter({ hasText: "Acceptability" }).filter({ hasText: "All specialties" }).first()).toContainText(model);
    await expect(rows.filter({ hasText: "Acceptability" }).filter({ hasText: "All specialties" }).first()).toContainText("3.00");
    await expect(ranking).toContainText("0% at its lowest value, 100% at its highest");
    await expect(page.getByTestId("dashboard")).not.toContainText(/S\.C\.O\.R\.E\.|SAFE-LLM|out of 25/);

    // One dimension chosen: one heatmap, and the ranking on it only.
    await page.getByRole("combobox", { name: "Compare models on" }).selectOption("extent");
    await expect(page).toHaveURL(/measure=extent/);
    await expect(page.locator(`[data-testid^="panel-cliffs-"]`)).toHaveCount(1);
    await expect(page.getByTestId(`panel-cliffs-${key}-extent`)).toBeVisible();
    await expect(page.getByRole("table", { name: "Ranking of models" }).getByRole("row").filter({ hasText: "Acceptability" })).toHaveCount(0);
    await attach(page, "dashboard-survey-extent");
    expect(errors, errors.join("\n")).toEqual([]);
  });

  test("a grader cannot open the dashboard or its API", async ({ page }) => {
    await signInAs(page, demo.graders[0]);
    const res = await page.request.get("/api/v1/studies/00000000-0000-4000-8000-000000000000/stats");
    expect(res.status()).toBe(403);
  });
});
