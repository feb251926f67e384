import { expect, test, type Download, type Page } from "@playwright/test";
import pg from "pg";
import Papa from "papaparse";
import { pngInfo } from "../components/dashboard/png-dpi";
import { fmt } from "../lib/analytics/tables";
import { DEMO_MODELS } from "../lib/demo/content";
import { PILOT_STUDY_SLUG } from "../lib/demo/seed";
import { demo, e2eDatabaseUrl, signIn } from "./fixtures";

/**
 * Charts fit for a paper (issue 21, item 7), on the graded pilot's dashboard:
 * each chart downloads as an SVG that says its width in inches and as a PNG of
 * inches x dpi pixels whose pHYs chunk says the dpi; the SVG holds every model's
 * full name, its title and n; opened in the browser, no text of it falls
 * outside its viewBox and no two legend entries overlap. The whole dashboard
 * prints to a multi-page PDF (page.pdf, print media).
 */

const bytes = async (d: Download) => Buffer.concat(await (await d.createReadStream()).toArray());

async function download(page: Page, panel: string, kind: "SVG" | "PNG" | "CSV") {
  const [d] = await Promise.all([page.waitForEvent("download"), page.getByTestId(`panel-${panel}`).getByRole("button", { name: kind, exact: true }).click()]);
  return bytes(d);
}

/** The graded pilot study: its charts have every model and several graders. */
async function pilotStudyId(): Promise<string> {
  const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await db.connect();
  try {
    return (await db.query<{ id: string }>(`SELECT id FROM "Study" WHERE slug = $1`, [PILOT_STUDY_SLUG])).rows[0].id;
  } finally {
    await db.end();
  }
}

/** The SVG's geometry as a browser lays it out: its box, each text's box, each legend entry's box. */
async function geometry(page: Page, svg: string) {
  await page.setContent(`<!doctype html><html><body style="margin:0">${svg.replace(/^<\?xml[^>]*>\s*/, "")}</body></html>`);
  return page.evaluate(() => {
    const root = document.querySelector("body > svg")!;
    const r = root.getBoundingClientRect();
    const rel = (b: DOMRect) => ({ x: b.x - r.x, y: b.y - r.y, right: b.right - r.x, bottom: b.bottom - r.y });
    return {
      width: r.width,
      height: r.height,
      texts: Array.from(root.querySelectorAll("text"))
        .filter((t) => (t.textContent ?? "").trim() && t.getBoundingClientRect().width > 0)
        .map((t) => ({ text: t.textContent!.trim(), ...rel(t.getBoundingClientRect()) })),
      legend: Array.from(root.querySelectorAll('[data-role="legend-entry"]')).map((g) => ({ text: g.textContent ?? "", ...rel(g.getBoundingClientRect()) })),
    };
  });
}

test("every chart downloads as SVG and PNG at a chosen size and 300 dpi, names in full, nothing clipped; the dashboard prints to a multi-page PDF", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const studyId = await pilotStudyId();
  await signIn(page, demo.lead);
  await page.goto(`/studies/${studyId}/dashboard`);
  await expect(page.getByTestId("panel-radar-score").locator(".recharts-radar-polygon")).toHaveCount(3);
  const viewer = await (await browser.newContext()).newPage();

  for (const panel of ["radar-score", "radar-safe_llm", "alpha", "cliffs-score", "cliffs-safe_llm"]) {
    const p = page.getByTestId(`panel-${panel}`);
    for (const size of [
      { widthIn: 7, dpi: 300 },
      { widthIn: 3.5, dpi: 600 },
    ]) {
      await p.getByLabel("Figure width").selectOption(String(size.widthIn));
      await p.getByLabel("Resolution").selectOption(String(size.dpi));
      const svg = (await download(page, panel, "SVG")).toString("utf8");
      const pngBytes = await download(page, panel, "PNG");
      const png = pngInfo(new Uint8Array(pngBytes));
      await test.info().attach(`${panel}-${size.widthIn}in-${size.dpi}dpi.png`, { body: pngBytes, contentType: "image/png" });
      await test.info().attach(`${panel}-${size.widthIn}in.svg`, { body: svg, contentType: "image/svg+xml" });
      const [, vbW, vbH] = svg.match(/viewBox="0 0 ([\d.]+) ([\d.]+)"/)!.map(Number);
      expect(svg, panel).toContain(`width="${size.widthIn}in"`);
      expect(png, `${panel} at ${size.widthIn} in, ${size.dpi} dpi`).toEqual({ width: size.widthIn * size.dpi, height: Math.round((size.widthIn * size.dpi * vbH) / vbW), dpi: size.dpi });

      const g = await geometry(viewer, svg);
      const titles = g.texts.map((t) => t.text).join(" ");
      expect(titles, `${panel}: a title and n`).toMatch(/n = \d+/);
      // n counts what the chart plots: the pilot's charts all have final sets behind them.
      expect(titles, `${panel}: n is never 0`).not.toMatch(/n = 0\b/);
      if (!panel.startsWith("alpha")) for (const m of DEMO_MODELS) expect(titles, `${panel}: ${m.name} in full`).toContain(m.name);
      // Never cut: no label ends in an ellipsis, and a heatmap names each model in full as a row and as a column.
      expect(g.texts.filter((t) => t.text.endsWith("…")).map((t) => t.text), panel).toEqual([]);
      if (panel.startsWith("cliffs")) for (const m of DEMO_MODELS) expect(g.texts.filter((t) => t.text === m.name).length, `${panel}: ${m.name} as row and column`).toBeGreaterThanOrEqual(2);
      for (const t of g.texts) {
        // Inside the figure (half a pixel for anti-aliasing).
        expect({ panel, ...t, inside: t.x >= -0.5 && t.y >= -0.5 && t.right <= g.width + 0.5 && t.bottom <= g.height + 0.5 }).toMatchObject({ inside: true });
      }
      for (let i = 0; i < g.legend.length; i++)
        for (let j = i + 1; j < g.legend.length; j++) {
          const [a, b] = [g.legend[i], g.legend[j]];
          const overlap = a.x < b.right && b.x < a.right && a.y < b.bottom && b.y < a.bottom;
          expect({ panel, a: a.text, b: b.text, overlap }).toMatchObject({ overlap: false });
        }
    }
  }
  await viewer.context().close();

  // The whole dashboard on paper: the navigation, the filters and the buttons left out, several pages.
  await expect(page.getByRole("button", { name: "Print or save as PDF" })).toBeVisible();
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("region", { name: "Filters" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Print or save as PDF" })).toBeHidden();
  const pdf = await page.pdf({ format: "A4", printBackground: true });
  expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const pages = (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  expect(pages).toBeGreaterThanOrEqual(3);
  await test.info().attach("dashboard.pdf", { body: pdf, contentType: "application/pdf" });
});

test("the journal statistics' kappa matrices: the API's numbers in the chart and its CSV, SVG and PNG downloads, nothing clipped", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const studyId = await pilotStudyId();
  await signIn(page, demo.lead);
  const api = await page.request.get(`/api/v1/studies/${studyId}/stats?journal=1`);
  expect(api.status()).toBe(200);
  type Agreement = { key: string; raters: string[]; kappa: { ranks: { matrix: (number | null)[][] } } | null };
  const rubrics = ((await api.json()) as { journal: { data: { rubrics: { rubric: string; agreement: Agreement[] }[] } } }).journal.data.rubrics;
  const score = rubrics.find((r) => r.rubric.toLowerCase() === "score")!;
  const withKappa = score.agreement.filter((a) => a.kappa && a.raters.length >= 2);
  expect(withKappa.length).toBeGreaterThan(1);

  await page.goto(`/studies/${studyId}/dashboard`);
  await page.getByRole("link", { name: "Compute the journal statistics" }).click();
  const panel = page.getByTestId("panel-kappa-score");
  await expect(panel).toBeVisible({ timeout: 60_000 });
  // One panel per rubric, each with its own legend gradient: an id drawn twice would colour one legend from the other's.
  await expect(page.locator('[data-testid^="panel-kappa-"]')).toHaveCount(rubrics.filter((r) => r.agreement.some((a) => a.kappa && a.raters.length >= 2)).length);
  const ids = await page.locator("[id]").evaluateAll((els) => els.map((e) => e.id));
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  // Each off-diagonal cell shows the API's kappa, rounded as the page rounds.
  for (const a of withKappa) {
    const shown = await panel.locator(`[data-cell^="${a.key}|"] text`).allTextContents();
    const expected = a.kappa!.ranks.matrix.flatMap((row, i) => row.filter((_, j) => j !== i).map((k) => (k === null ? "n/a" : fmt(k, 2))));
    expect(shown, a.key).toEqual(expected);
  }
  // The CSV: every cell of every matrix, the diagonal included, in the API's order and precision.
  const csv = (await download(page, "kappa-score", "CSV")).toString("utf8").replace(/^\ufeff/, "");
  const cells = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true }).data;
  expect(cells.map((c) => [c.key, c.kappa === "" ? null : Number(c.kappa)])).toEqual(withKappa.flatMap((a) => a.kappa!.ranks.matrix.flat().map((k) => [a.key, k])));

  const svg = (await download(page, "kappa-score", "SVG")).toString("utf8");
  const png = pngInfo(new Uint8Array(await download(page, "kappa-score", "PNG")));
  const [, vbW, vbH] = svg.match(/viewBox="0 0 ([\d.]+) ([\d.]+)"/)!.map(Number);
  expect(png).toEqual({ width: 7 * 300, height: Math.round((7 * 300 * vbH) / vbW), dpi: 300 });
  const viewer = await (await browser.newContext()).newPage();
  const g = await geometry(viewer, svg);
  expect(g.texts.map((t) => t.text).join(" ")).toMatch(/\d+ units per matrix/);
  for (const t of g.texts) expect({ ...t, inside: t.x >= -0.5 && t.y >= -0.5 && t.right <= g.width + 0.5 && t.bottom <= g.height + 0.5 }).toMatchObject({ inside: true });
  await viewer.context().close();
});
