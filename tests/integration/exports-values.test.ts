import fc from "fast-check";
import Papa from "papaparse";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { POST as assign } from "@/app/api/v1/studies/[id]/assignments/route";
import { GET as exportStudy } from "@/app/api/v1/studies/[id]/export/route";
import { getDb } from "@/lib/db/client";
import { guardFormula } from "@/lib/exports/csv";
import { closeExportPools } from "@/lib/exports/pool";
import { sqlGuard } from "@/lib/exports/sql";
import { buildGradeBody, cellKey, initialFormState, setComment, setScore, type CellValue, type StudyShape } from "@/lib/grading/form-state";
import type { RubricDocument } from "@/lib/rubrics/document";
import { bearer, call } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makeGradableStudy } from "./helpers/study-fixture";

/**
 * The grades export of a study with its own instrument (issue 31's oncology
 * survey: ordinal items with N/A, a nominal "written by", no total, one
 * answer per question) and comments a spreadsheet would run as formulas
 * (issue 32), graded and exported through the API on a real PostgreSQL.
 */
const db = useIsolatedDatabase();
afterAll(() => closeExportPools());

const level = (value: number | string, label: string) => ({ value, label });
const SURVEY: RubricDocument = {
  key: "oncology_survey",
  name: "Patient-message reply survey",
  version: 1,
  dimensions: [
    { key: "acceptability", name: "Acceptability", scope: "first_answer", scale: { kind: "ordinal", levels: [level(1, "Unacceptable"), level(2, "Acceptable with edits"), level(3, "Acceptable")] } },
    {
      key: "extent_of_harm",
      name: "Extent of harm",
      scope: "first_answer",
      scale: { kind: "ordinal", allowNA: true, levels: [level(1, "No harm"), level(2, "Mild harm"), level(3, "Moderate harm"), level(4, "Severe harm"), level(5, "Death")] },
    },
    { key: "efficiency", name: "Efficiency", scope: "first_answer", scale: { kind: "ordinal", allowNA: true, levels: [level(1, "Less efficient"), level(2, "Same"), level(3, "More efficient")] } },
    // Negative levels: a number in a numeric column is never prefixed, whatever its sign.
    { key: "net_change", name: "Change in workload", scope: "first_answer", scale: { kind: "ordinal", levels: [level(-2, "Much less"), level(-1, "Less"), level(0, "Same"), level(1, "More")] } },
    { key: "written_by", name: "Written by", scope: "first_answer", scale: { kind: "nominal", levels: [level("ai", "AI"), level("human", "Human")] } },
  ],
  totals: [],
};
const DIMS = SURVEY.dimensions.map((d) => d.key);

/** Comments that begin a formula once a spreadsheet strips a quote, a space or folds a fullwidth sign, and what the CSV must hold. */
const COMMENTS: [string, string][] = [
  ['"=1+1', `'"=1+1`],
  ["\uFF1D1+1", "'\uFF1D1+1"],
  ["\uFF0B41 79 000", "'\uFF0B41 79 000"],
  ["\uFF0D1", "'\uFF0D1"],
  ["\uFF20SUM(A1)", "'\uFF20SUM(A1)"],
  ['"-2', `'"-2`],
  ['"@x', `'"@x`],
  ["\uFF02=1", "'\uFF02=1"],
  ['"quoted" and fine', '"quoted" and fine'],
  ["plain", "plain"],
];

type Values = Record<string, CellValue>;
/** Per set index: what both graders give (they agree, so every set is final). */
const GIVEN: Values[] = [
  { acceptability: 3, extent_of_harm: null, efficiency: 2, net_change: -1, written_by: "ai" },
  { acceptability: 2, extent_of_harm: 4, efficiency: null, net_change: -2, written_by: "human" },
  { acceptability: 1, extent_of_harm: 1, efficiency: 3, net_change: 0, written_by: "human" },
];

type Fixture = Awaited<ReturnType<typeof makeGradableStudy>>;
let f: Fixture;
const shape: StudyShape = { rubrics: [SURVEY], repetitions: 1 };
const labelOf = (dim: string, v: CellValue) => (v === null ? "Not applicable" : SURVEY.dimensions.find((d) => d.key === dim)!.scale.levels!.find((l) => l.value === v)!.label);

async function put(assignmentId: string, graderId: string, values: Values, opts: { submit: boolean; comments?: string[] }) {
  let state = initialFormState({ scores: [], harm: { flag: false, comment: null } }, shape);
  DIMS.forEach((k, i) => {
    const key = cellKey(SURVEY.key, k, 1);
    if (k in values) state = setScore(state, key, values[k]);
    if (opts.comments?.[i]) state = setComment(state, key, opts.comments[i]);
  });
  // The lowest acceptability needs a comment (the survey's rule in the issue; here every cell has one).
  const { body } = buildGradeBody(state, shape, { submit: opts.submit });
  const token = f.graders.find((g) => g.id === graderId)!.token;
  const res = await call(putGrades, `/api/v1/assignments/${assignmentId}/grades`, bearer(token, { method: "PUT", body: JSON.stringify(body), headers: { "content-type": "application/json" } }), { id: assignmentId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

beforeAll(async () => {
  f = await makeGradableStudy({ rubrics: [SURVEY], items: 2, models: 2, n: 1, graders: 2 });
  const res = await call(assign, `/api/v1/studies/${f.study.id}/assignments`, bearer(f.lead.token, { method: "POST", body: JSON.stringify({ seed: "v" }), headers: { "content-type": "application/json" } }), { id: f.study.id });
  expect(res.status).toBe(200);
  let c = 0;
  for (const [i, set] of f.sets.entries()) {
    const assignments = await getDb().assignment.findMany({ where: { responseSetId: set.id }, orderBy: { id: "asc" } });
    for (const [j, a] of assignments.entries()) {
      if (i === 3 && j === 1) {
        // A draft: a comment typed before any value (stored without one: "missing", neither a value nor N/A).
        await put(a.id, a.graderId, {}, { submit: false, comments: ["Still reading"] });
        continue;
      }
      const comments = DIMS.map(() => COMMENTS[c++ % COMMENTS.length][0]);
      await put(a.id, a.graderId, GIVEN[i % GIVEN.length], { submit: true, comments });
    }
  }
}, 120_000);

const exportOf = async (dataset: string, format: "csv" | "json") => {
  const res = await call(exportStudy, `/api/v1/studies/${f.study.id}/export?dataset=${dataset}&format=${format}`, bearer(f.lead.token), { id: f.study.id });
  expect(res.status).toBe(200);
  // JSON bodies come parsed (the helper parses what it can); CSV as text.
  return format === "json" ? JSON.stringify(res.body) : (res.body as unknown);
};
const csvRows = (body: unknown) => {
  const parsed = Papa.parse<Record<string, string>>(String(body), { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
};

describe("grades export of a study with nominal items, N/A and no total", () => {
  it("CSV: a value, N/A and a missing value are three different rows; labels come from the rubric document; negative scores are not prefixed", async () => {
    const rows = csvRows(await exportOf("grades", "csv"));
    const nominal = rows.filter((r) => r.dimension === "written_by" && r.value !== "");
    // 4 sets x 2 graders, less the draft
    expect(nominal).toHaveLength(7);
    for (const r of nominal) {
      expect(["ai", "human"]).toContain(r.value);
      expect(r.score).toBe("");
      expect(r.na).toBe("false");
      expect(r.label).toBe(r.value === "ai" ? "AI" : "Human");
    }
    const na = rows.filter((r) => r.na === "true");
    expect(na.map((r) => r.dimension).sort()).toEqual(["efficiency", "efficiency", "extent_of_harm", "extent_of_harm", "extent_of_harm"]);
    for (const r of na) expect([r.value, r.score, r.label]).toEqual(["", "", "Not applicable"]);
    const missing = rows.filter((r) => r.value === "" && r.na === "false");
    expect(missing).toHaveLength(1);
    expect([missing[0].assignment_status, missing[0].dimension, missing[0].label, missing[0].comment]).toEqual(["in_progress", "acceptability", "", "Still reading"]);
    const negative = rows.filter((r) => r.dimension === "net_change" && r.score.startsWith("-"));
    expect(negative.length).toBe(5);
    for (const r of negative) {
      expect(r.value).toBe(r.score);
      expect(r.score).toMatch(/^-[12]$/);
    }
    expect(new Set(negative.map((r) => r.label))).toEqual(new Set(["Less", "Much less"]));
    // Every ordinal row: value = score, label = the document's.
    for (const r of rows.filter((x) => x.score !== "")) expect([r.value, r.label]).toEqual([r.score, labelOf(r.dimension, Number(r.score))]);
  });

  it("CSV: comments that would start a formula (a quote before the sign, fullwidth signs) get an apostrophe; others are untouched", async () => {
    const body = String(await exportOf("grades", "csv"));
    const comments = new Set(csvRows(body).map((r) => r.comment));
    for (const [, expected] of COMMENTS) expect(comments).toContain(expected);
    for (const [given] of COMMENTS) if (guardFormula(given) !== given) expect(comments).not.toContain(given);
  });

  it("JSON: numbers stay numbers, nominal values strings, N/A is na = true with a null value, nothing is prefixed", async () => {
    const rows = JSON.parse(String(await exportOf("grades", "json"))) as Record<string, unknown>[];
    for (const r of rows) {
      if (r.na === true) expect([r.value, r.score, r.label]).toEqual([null, null, "Not applicable"]);
      else if (r.dimension === "written_by" && r.value !== null) expect(["ai", "human"]).toContain(r.value);
      else if (r.value !== null) expect([typeof r.value, r.value]).toEqual(["number", r.score]);
    }
    expect(rows.filter((r) => r.value === null && r.na === false)).toHaveLength(1);
    expect(rows.filter((r) => r.na === true)).toHaveLength(5);
    const comments = new Set(rows.map((r) => r.comment));
    for (const [given] of COMMENTS) expect(comments).toContain(given);
  });
});

describe("long and per-set exports carry nominal finals and N/A", () => {
  it("score-long and sets: the nominal level, NA for not applicable, empty for a set without final values", async () => {
    for (const [dataset, column] of [
      ["score-long", (d: string) => d],
      ["sets", (d: string) => `oncology_survey_${d}`],
    ] as const) {
      const rows = csvRows(await exportOf(dataset, "csv"));
      const finals = rows.filter((r) => r[column("written_by")] !== "");
      expect(finals.length, dataset).toBe(3);
      for (const r of finals) expect(["ai", "human"]).toContain(r[column("written_by")]);
      expect(finals.filter((r) => r[column("extent_of_harm")] === "NA").length, dataset).toBe(1);
      expect(finals.filter((r) => r[column("efficiency")] === "NA").length, dataset).toBe(1);
      expect(finals.some((r) => r[column("net_change")] === "-2"), dataset).toBe(true);
    }
    const sets = JSON.parse(String(await exportOf("sets", "json"))) as { finalScores: Record<string, Record<string, unknown>> | null }[];
    expect(sets.filter((s) => s.finalScores).map((s) => s.finalScores!.oncology_survey.written_by).sort()).toEqual(["ai", "human", "human"]);
  });
});

describe("the formula guard in PostgreSQL is guardFormula()", () => {
  it("for any text (property, on the server the COPY runs on)", async () => {
    const client = new pg.Client({ connectionString: db.url() });
    await client.connect();
    try {
      const piece = fc.constantFrom("=", "+", "-", "@", "\t", "\r", "\n", " ", '"', "\uFF02", "\uFF1D", "\uFF0B", "\uFF0D", "\uFF20", "\u00A0", "\u3000", "\uFEFF", "a", "1", "'");
      const text = fc.oneof(fc.array(piece, { maxLength: 6 }).map((p) => p.join("")), fc.string({ unit: "grapheme", maxLength: 8 }));
      await fc.assert(
        fc.asyncProperty(fc.array(text.filter((t) => !t.includes("\u0000")), { minLength: 1, maxLength: 50 }), async (texts) => {
          const { rows } = await client.query<{ g: string }>(`SELECT ${sqlGuard("x")} AS g FROM unnest($1::text[]) WITH ORDINALITY AS t(x, i) ORDER BY i`, [texts]);
          expect(rows.map((r) => r.g)).toEqual(texts.map(guardFormula));
        }),
        { numRuns: 200 },
      );
    } finally {
      await client.end();
    }
  });
});
