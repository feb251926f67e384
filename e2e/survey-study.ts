import { expect, type Browser, type Page } from "@playwright/test";
import { signIn } from "./fixtures";

/**
 * A study with its own instrument and no total (issue 31's oncology survey,
 * shortened): ordinal items on 1-3 and 1-5 (two with N/A) and a nominal
 * "written by"; one answer per question, two sources, k = 2. Built and graded
 * through the API by the lead and two new graders, so that the dashboard,
 * Results and the set detail can be checked value by value.
 */
const levels = (n: number, names: string[]) => Array.from({ length: n }, (_, i) => ({ value: i + 1, label: names[i] ?? `Level ${i + 1}` }));

export const SURVEY = {
  key: "oncology_survey",
  name: "Oncology reply survey",
  version: 1,
  dimensions: [
    { key: "acceptability", name: "Acceptability", scope: "each_answer", scale: { kind: "ordinal", levels: levels(3, ["Unacceptable", "Acceptable with edits", "Acceptable"]) } },
    { key: "likelihood", name: "Likelihood of harm", scope: "each_answer", scale: { kind: "ordinal", levels: levels(3, ["Unlikely", "Possible", "Likely"]) } },
    { key: "extent", name: "Extent of harm", scope: "each_answer", scale: { kind: "ordinal", levels: levels(5, ["No harm", "Mild", "Moderate", "Severe", "Death"]), allowNA: true } },
    { key: "efficiency", name: "Efficiency", scope: "each_answer", scale: { kind: "ordinal", levels: levels(3, ["Less", "Same", "More"]), allowNA: true } },
    { key: "written_by", name: "Written by", scope: "first_answer", scale: { kind: "nominal", levels: [{ value: "ai", label: "AI" }, { value: "human", label: "Human" }] } },
  ],
  totals: [],
};

export const SOURCES = ["Draft-Model-GPT", "Clinician-Reply"];
const QUESTIONS = 4;

/**
 * Scores of source 0 (the model): acceptability 3, likelihood 1, extent 2 (N/A on question 1),
 * efficiency 2, written by AI. Source 1: acceptability 1 and 2 (final 1.5), likelihood 2,
 * extent 3 and 4 (3.5), efficiency 2, written by a human. Both graders agree on "written by":
 * every set is final (8 sets).
 */
function scoresFor(source: number, question: number, grader: number) {
  const cell = (dimension: string, score: number | string | null) => ({ rubric: SURVEY.key, dimension, repetition: 1, score, ...(score === null ? { na: true } : {}) });
  return source === 0
    ? [cell("acceptability", 3), cell("likelihood", 1), cell("extent", question === 1 ? null : 2), cell("efficiency", 2), cell("written_by", "ai")]
    : [cell("acceptability", 1 + grader), cell("likelihood", 2), cell("extent", 3 + grader), cell("efficiency", 2), cell("written_by", "human")];
}

/** Creates, fills, opens, assigns and grades the survey study as `lead` (signed in on `page`); returns its id. */
export async function gradedSurveyStudy(page: Page, browser: Browser): Promise<string> {
  const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const created = await page.request.post("/api/v1/studies", { data: { name: `Survey views ${stamp}`, rubrics: [SURVEY], repetitions: 1, gradersPerSet: 2 } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const rows = [];
  for (let q = 1; q <= QUESTIONS; q++)
    for (const source of SOURCES) rows.push({ item_id: `PT-${q}`, specialty: "Oncology", question: `Patient message ${q}:\nIs this side effect expected?`, reference_answer: `Reply from the care team ${q}.`, model: source, repetition: 1, response: `Reply ${q} by ${source}.` });
  const imported = await page.request.post(`/api/v1/studies/${id}/import`, { data: rows });
  expect(imported.status(), await imported.text()).toBe(200);
  const graders: { email: string; password: string }[] = [];
  for (let i = 1; i <= 2; i++) {
    const email = `survey-${stamp}-${i}@hospital.example`;
    const added = await page.request.post(`/api/v1/studies/${id}/graders`, { data: { email, name: `Dr. Survey ${i}` } });
    expect(added.status(), await added.text()).toBe(201);
    graders.push({ email, password: ((await added.json()) as { initialPassword: string }).initialPassword });
  }
  expect((await page.request.patch(`/api/v1/studies/${id}`, { data: { status: "OPEN" } })).status()).toBe(200);
  const assigned = await page.request.post(`/api/v1/studies/${id}/assignments`, { data: { seed: "survey-views" } });
  expect(assigned.status(), await assigned.text()).toBe(200);

  // Grader order by email: grader 0 gives source 1 acceptability 1, grader 1 gives 2.
  for (const [g, grader] of graders.entries()) {
    const context = await browser.newContext();
    const gp = await context.newPage();
    await signIn(gp, grader);
    const { assignments } = (await (await gp.request.get("/api/v1/me/assignments")).json()) as { assignments: { id: string }[] };
    expect(assignments).toHaveLength(QUESTIONS * SOURCES.length);
    for (const a of assignments) {
      // Blinded: the grader's view has neither the item's id nor the source; the texts say which they are.
      const view = (await (await gp.request.get(`/api/v1/assignments/${a.id}`)).json()) as { item: { question: string }; answers: { text: string }[] };
      const question = Number(view.item.question.match(/Patient message (\d+)/)![1]);
      const source = view.answers[0].text.includes(SOURCES[0]) ? 0 : 1;
      const put = await gp.request.put(`/api/v1/assignments/${a.id}/grades`, { data: { scores: scoresFor(source, question, g), submit: true } });
      expect(put.status(), await put.text()).toBe(200);
    }
    await context.close();
  }
  return id;
}
