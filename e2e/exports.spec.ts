import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { AUDIT_HEADER } from "../lib/exports/audit";
import { GRADE_HEADER } from "../lib/exports/grades";
import { setsHeader, SUMMARY_HEADER } from "../lib/exports/results";
import { demo, signIn } from "./fixtures";

/** Exactly the header the S.C.O.R.E. paper's public analysis code reads (its template names these columns). */
// The published analysis code's columns, then the reference metrics: the demo's questions have reference answers.
const SCORE_LONG_HEADER = ["domain", "model", "response_id", "Safety", "Consensus", "Objectivity", "Reproducibility", "Explainability", "bleu", "rouge1", "rougeL"] as const;

/**
 * The lead downloads every dataset from the exports page in Chromium; the
 * files are checked for their names and headers. The closed, graded demo
 * pilot is used when the demo has it, else the main demo study (no grades
 * yet: header rows only).
 */
const PILOT = "demo-pilot-graded";
const MAIN = "demo-clinical-qa";

interface StudyRow {
  id: string;
  slug: string;
  rubrics: ("SCORE" | "SAFE_LLM")[];
}

async function demoStudy(page: Page): Promise<StudyRow> {
  const res = await page.request.get("/api/v1/studies?q=demo&pageSize=100");
  expect(res.ok()).toBe(true);
  const { studies } = (await res.json()) as { studies: StudyRow[] };
  const study = studies.find((s) => s.slug === PILOT) ?? studies.find((s) => s.slug === MAIN);
  expect(study, "the demo study").toBeTruthy();
  return study!;
}

async function download(page: Page, testId: string) {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByTestId(testId).click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), bytes: await readFile(path) };
}

test.describe("exports", () => {
  test("the lead downloads every dataset in every format, with the right file names and headers", async ({ page }) => {
    await signIn(page, demo.lead);
    const study = await demoStudy(page);
    await page.goto(`/studies/${study.id}/exports`);
    await expect(page.getByRole("heading", { name: "Exports" })).toBeVisible();
    await expect(page.getByText("to feed that code unchanged")).toBeVisible();
    const today = new Date().toISOString().slice(0, 10);

    const csvHeaders: Record<string, readonly string[]> = {
      grades: GRADE_HEADER,
      "score-long": SCORE_LONG_HEADER,
      sets: setsHeader(templateRubrics(study.rubrics)),
      summary: SUMMARY_HEADER,
      audit: AUDIT_HEADER,
    };
    for (const [dataset, header] of Object.entries(csvHeaders)) {
      const csv = await download(page, `export-${dataset}-csv`);
      expect(csv.name).toBe(`${study.slug}_${dataset}_${today}.csv`);
      const text = csv.bytes.toString("utf8");
      expect(text.charCodeAt(0), `${dataset}: no BOM unless asked`).not.toBe(0xfeff);
      expect(text.split("\n")[0], dataset).toBe(header.join(","));

      const json = await download(page, `export-${dataset}-json`);
      expect(json.name).toBe(`${study.slug}_${dataset}_${today}.json`);
      const parsed = JSON.parse(json.bytes.toString("utf8")) as unknown;
      if (dataset === "summary") expect(parsed).toMatchObject({ study: study.slug, models: expect.any(Array), alpha: expect.any(Array), cliffsDelta: expect.any(Array) });
      else expect(Array.isArray(parsed), dataset).toBe(true);
      if (dataset === "grades" && (parsed as unknown[]).length > 0) expect(Object.keys((parsed as Record<string, unknown>[])[0])).toEqual([...GRADE_HEADER]);
    }
    if (study.slug === PILOT) {
      // a graded study: rows under the header, and no grader names without identities
      const grades = (await download(page, "export-grades-csv")).bytes.toString("utf8");
      expect(grades.split("\n").length).toBeGreaterThan(100);
      expect(grades).not.toContain("@demo.clingrade.org");
      expect((await download(page, "export-score-long-csv")).bytes.toString("utf8").split("\n").length).toBeGreaterThan(2);
    }

    const archive = await download(page, "export-study-json");
    expect(archive.name).toBe(`${study.slug}_study_${today}.json`);
    expect(JSON.parse(archive.bytes.toString("utf8"))).toMatchObject({ format: "clingrade-study-archive", version: 1, study: { slug: study.slug } });
    await expect(page.getByTestId("export-study-csv")).toHaveCount(0);

    // Options: a byte-order mark for Excel, identities
    await page.getByLabel("Byte-order mark for Excel").check();
    await page.getByLabel("Include grader names and emails").check();
    const excel = await download(page, "export-grades-csv");
    expect([...excel.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(excel.bytes.subarray(3).toString("utf8").split("\n")[0]).toBe(GRADE_HEADER.join(","));
    if (study.slug === PILOT) expect(excel.bytes.toString("utf8")).toContain("@demo.clingrade.org");
  });

  test("a grader cannot export", async ({ page }) => {
    await signIn(page, demo.graders[0]);
    const res = await page.request.get(`/api/v1/studies/00000000-0000-4000-8000-000000000000/export?dataset=grades`);
    expect(res.status()).toBe(403);
  });
});
