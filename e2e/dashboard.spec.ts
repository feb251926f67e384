import { expect, test, type Page } from "@playwright/test";
import { demo, signIn } from "./fixtures";

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
    test.skip(!id, `the demo has no study "${PILOT_SLUG}" yet (the graded pilot comes with the demo seed)`);

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
    expect(svgText).toContain("S.C.O.R.E. profile");

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
    test.skip(!id, `the demo has no study "${OPEN_SLUG}"`);
    await page.goto(`/studies/${id}/dashboard`);
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    const stats = await (await page.request.get(`/api/v1/studies/${id}/stats`)).json();
    test.skip(stats.scope.finalSets > 0, "someone graded the open demo study during the run");
    for (const p of ["radar-score", "alpha", "cliffs-score", "ranking"]) {
      await expect(page.getByTestId(`panel-${p}`).getByTestId("not-enough-data")).toContainText("Not enough data yet");
      await expect(page.getByTestId(`panel-${p}`).locator(".recharts-surface")).toHaveCount(0);
    }
    await expect(page.getByTestId("panel-progress").getByTestId("not-enough-data")).toHaveCount(0);
    await attach(page, "dashboard-empty");
    expect(errors, errors.join("\n")).toEqual([]);
  });

  test("a grader cannot open the dashboard or its API", async ({ page }) => {
    await signInAs(page, demo.graders[0]);
    const res = await page.request.get("/api/v1/studies/00000000-0000-4000-8000-000000000000/stats");
    expect(res.status()).toBe(403);
  });
});
