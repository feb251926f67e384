import fc from "fast-check";
import Papa from "papaparse";
import { afterAll, describe, expect, it } from "vitest";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { POST as assign } from "@/app/api/v1/studies/[id]/assignments/route";
import { GET as exportStudy } from "@/app/api/v1/studies/[id]/export/route";
import { GET as listSets } from "@/app/api/v1/studies/[id]/sets/route";
import { POST as importArchive } from "@/app/api/v1/study-archives/route";
import { getDb } from "@/lib/db/client";
import { guardFormula } from "@/lib/exports/csv";
import { closeExportPools } from "@/lib/exports/pool";
import { buildGradeBody, gradingFields, initialFormState, setComment, setScore, type StudyShape } from "@/lib/grading/form-state";
import type { Criterion } from "@/lib/rubrics/criteria";
import type { RubricDimension, RubricDocument } from "@/lib/rubrics/document";
import { resolveRubrics, storedRubrics } from "@/lib/rubrics/study-rubrics";
import { RUBRIC_TEMPLATES } from "@/lib/rubrics/templates";
import { graderPseudonym } from "@/lib/users/pseudonym";
import { bearer, call as callRoute } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();
afterAll(() => closeExportPools());

// Response bodies are compared as a whole between stages.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
const call = async <P,>(handler: (req: Request, ctx: { params: Promise<P> }) => Promise<Response>, url: string, init?: RequestInit, params?: P) =>
  (await callRoute(handler, url, init, params)) as { status: number; body: Body };
const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

/** A dimension: ordinal on increasing integers (gaps, negatives) or nominal on named categories; N/A sometimes allowed. */
const dimension = (i: number, n: number) =>
  fc
    .record({
      ordinal: fc.boolean(),
      start: fc.integer({ min: -3, max: 3 }),
      steps: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 5 }),
      categories: fc.integer({ min: 2, max: 4 }),
      allowNA: fc.boolean(),
      eachAnswer: fc.boolean(),
      threshold: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
    })
    .map((g): RubricDimension => {
      const values = g.steps.reduce((vs, s) => [...vs, vs[vs.length - 1] + s], [g.start]);
      const levels = g.ordinal ? values.map((value) => ({ value, label: `Level ${value}` })) : Array.from({ length: g.categories }, (_, c) => ({ value: `cat_${c}`, label: `${c === 0 ? "=" : ""}Category ${c}` }));
      const span = g.ordinal ? values[values.length - 1] - values[0] : 0;
      return {
        key: `d${i}`,
        name: `Dimension ${i}`,
        scope: n > 1 && g.eachAnswer && g.ordinal ? "each_answer" : "first_answer",
        scale: { kind: g.ordinal ? "ordinal" : "nominal", levels, ...(g.allowNA ? { allowNA: true } : {}) },
        ...(g.ordinal && g.threshold !== undefined && g.threshold <= span ? { threshold: g.threshold } : {}),
      };
    });

/** A criteria dimension (HealthBench-like): each question's criteria met or not, on the first or every answer. */
const criteriaDimension = (n: number) =>
  fc.boolean().map((each): RubricDimension => ({ key: "crit", name: "Criteria met", scope: n > 1 && each ? "each_answer" : "first_answer", scale: { kind: "criteria" } }));

const rubric = (n: number) =>
  fc.tuple(fc.integer({ min: 1, max: 4 }), fc.option(criteriaDimension(n), { nil: undefined })).chain(([count, criteria]) =>
    fc.tuple(...Array.from({ length: count }, (_, i) => dimension(i + 1, n))).map((typed): RubricDocument => {
      const dimensions = criteria ? [...typed, criteria] : typed;
      const ordinal = dimensions.filter((d) => d.scale.kind === "ordinal");
      const summed = ordinal.filter((d) => !d.scale.allowNA).map((d) => d.key);
      const totals: RubricDocument["totals"] = [
        ...(summed.length ? [{ key: "total", name: "Total", method: "sum" as const, dimensions: summed }] : []),
        ...(ordinal.length ? [{ key: "percent", name: "Percent of the applicable items", method: "percent_applicable" as const, dimensions: ordinal.map((d) => d.key) }] : []),
      ];
      return { key: "own", name: "A lead's own rubric", version: 1, dimensions, totals, ...(totals.length ? { headline: totals[0].key } : {}) };
    }),
  );

const scenario = fc.integer({ min: 1, max: 2 }).chain((n) => fc.record({ n: fc.constant(n), doc: rubric(n), seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }) }));

/** A value for each of the grader's fields, from the seed: a level, or N/A where the scale allows it; a criterion met (1) or not (0). */
function pick(d: RubricDimension, r: number): number | string | null {
  if (d.scale.kind === "criteria") return r < 0.5 ? 1 : 0;
  const levels = d.scale.levels!;
  const options = d.scale.allowNA ? levels.length + 1 : levels.length;
  const i = Math.floor(r * options);
  return i === levels.length ? null : levels[i].value;
}

type Value = number | string | null;
type Given = Record<string, Value[]>;

/** A grader's value of a dimension: the first answer's, or the mean of the answers' scores (N/A left out; all N/A: N/A). */
function graderValue(d: RubricDimension, xs: Value[]): Value | "N/A" {
  if (d.scope === "first_answer" || xs.length === 1) return xs[0] === null ? "N/A" : xs[0];
  const numbers = xs.filter((x): x is number => typeof x === "number");
  return numbers.length ? numbers.reduce((a, b) => a + b, 0) / numbers.length : "N/A";
}

/** Status, final scores and totals of a set graded by two graders, by the rules as the papers and the issue state them. */
function oracle(doc: RubricDocument, graders: Given[]) {
  const dims = doc.dimensions.filter((d) => d.scale.kind !== "criteria");
  const values = graders.map((g) => Object.fromEntries(dims.map((d) => [d.key, graderValue(d, g[d.key])])));
  const disagrees = dims.some((d) => {
    const [a, b] = values.map((v) => v[d.key]);
    if (d.scale.kind === "nominal") return a !== b;
    if (d.threshold === undefined) return false;
    if ((typeof a === "number") !== (typeof b === "number")) return true;
    return typeof a === "number" && typeof b === "number" && Math.abs(a - b) + 1e-9 >= d.threshold;
  });
  if (disagrees) return { status: "awaiting_adjudication", finalScores: null, totals: null };
  const finalScores = Object.fromEntries(
    dims.map((d) => {
      const xs = values.map((v) => v[d.key]);
      if (d.scale.kind === "nominal") return [d.key, xs[0]];
      const numbers = xs.filter((x): x is number => typeof x === "number");
      return [d.key, numbers.length ? numbers.reduce((a, b) => a + b, 0) / numbers.length : "N/A"];
    }),
  );
  const totals: Record<string, number | null> = {};
  for (const t of doc.totals) {
    const perGrader = values.map((v) => {
      if (t.method === "sum") return t.dimensions.reduce((acc, k) => acc + (v[k] as number), 0);
      let earned = 0;
      let possible = 0;
      for (const k of (t as { dimensions: string[] }).dimensions) {
        if (typeof v[k] !== "number") continue;
        const levels = doc.dimensions.find((d) => d.key === k)!.scale.levels!.map((l) => l.value as number);
        earned += ((v[k] as number) - Math.min(...levels)) / (Math.max(...levels) - Math.min(...levels));
        possible++;
      }
      return possible ? (100 * earned) / possible : null;
    });
    totals[t.key] = perGrader.every((x) => x !== null) ? (perGrader as number[]).reduce((a, b) => a + b, 0) / perGrader.length : null;
  }
  if (doc.headline) {
    const t = doc.totals.find((x) => x.key === doc.headline)!;
    const max = t.method === "percent_applicable" ? 100 : t.method === "sum" ? t.dimensions.reduce((acc, k) => acc + Math.max(...doc.dimensions.find((d) => d.key === k)!.scale.levels!.map((l) => l.value as number)), 0) : 1;
    totals.headline = totals[doc.headline];
    totals.percent = totals.headline === null || max <= 0 ? null : (100 * totals.headline) / max;
  }
  return { status: "agreed", finalScores: { own: finalScores }, totals: { own: totals } };
}

/** Each question's criteria: one id starting with "-", which a spreadsheet would take for a formula. */
const CRITERIA: Criterion[] = [
  { id: "c1", text: "Gives the dose", points: 3 },
  { id: "-harm", text: "Recommends stopping treatment", points: -2 },
];
/** Comments a spreadsheet would run as formulas (issue 32): the export must keep them text. */
const COMMENTS = ['"=1+1', "\uFF1D1+1", " =SUM(A1)", "-2", "plain"];

type Fixture = Awaited<ReturnType<typeof makeGradableStudy>>;
/** One stored cell as the grader gave it, keyed by what identifies its row in the grades export. */
interface GivenCell {
  item_id: string;
  model: string;
  grader: string;
  rubric: string;
  dimension: string;
  repetition: number | null;
  criterion: string | null;
  value: number | string | null;
  comment: string | null;
}

/**
 * Every assignment of the study graded through the grader's own form (the
 * functions the grading page runs) and PUT through the API, each field a
 * value from `next` and a comment; returns what each grader gave per set and
 * every cell sent.
 */
async function gradeThroughForm(f: Fixture, next: () => number, criteria: Criterion[] | null) {
  const db = getDb();
  const study = await db.study.findUniqueOrThrow({ where: { id: f.study.id } });
  const shape: StudyShape = { rubrics: storedRubrics(study.rubrics), repetitions: study.repetitions, criteria };
  const given = new Map<string, Given[]>();
  const cells: GivenCell[] = [];
  let c = 0;
  for (const a of await db.assignment.findMany({ where: { studyId: f.study.id }, orderBy: { id: "asc" }, include: { responseSet: { include: { item: true, model: true } } } })) {
    let state = initialFormState({ scores: [], harm: { flag: false, comment: null } }, shape);
    const mine: Given = {};
    for (const field of gradingFields(shape)) {
      const v = pick(field.dimension, next());
      state = setComment(setScore(state, field.key, v), field.key, COMMENTS[c++ % COMMENTS.length]);
      (mine[field.dimension.key] ??= []).push(v);
    }
    given.set(a.responseSetId, [...(given.get(a.responseSetId) ?? []), mine]);
    const { body } = buildGradeBody(state, shape, { submit: true });
    for (const s of body.scores) {
      cells.push({
        item_id: a.responseSet.item.externalId,
        model: a.responseSet.model.name,
        grader: graderPseudonym(f.study.id, a.graderId),
        rubric: s.rubric,
        dimension: s.dimension,
        repetition: s.repetition ?? null,
        criterion: s.criterion ?? null,
        value: s.score ?? null,
        comment: s.comment?.trim() ?? null,
      });
    }
    const token = f.graders.find((g) => g.id === a.graderId)!.token;
    const put = await call(putGrades, `/api/v1/assignments/${a.id}/grades`, json(token, "PUT", body), { id: a.id });
    // Every form the rubric draws, filled in, is a valid submission.
    expect(put.status, JSON.stringify(put.body)).toBe(200);
  }
  return { given, cells, rubrics: shape.rubrics };
}

/** The level label the export must give a cell: the document's, "Not applicable", or a criterion's Met / Not met. */
function labelOf(rubrics: readonly RubricDocument[], cell: GivenCell): string {
  if (cell.value === null) return "Not applicable";
  const d = rubrics.find((r) => r.key === cell.rubric)!.dimensions.find((x) => x.key === cell.dimension)!;
  if (d.scale.kind === "criteria") return cell.value === 1 ? "Met" : "Not met";
  return d.scale.levels!.find((l) => l.value === cell.value)!.label;
}

/**
 * The grades export, CSV and JSON, read back: every cell the graders sent is
 * one row with the same value (a number, a nominal level, N/A as na = true
 * with an empty value), its label and criterion; derived dimensions (the
 * server computes them) are the only other rows. In CSV text is guarded
 * against formulas, numbers never are.
 */
async function expectGradesExportToHold(f: Fixture, token: string, rubrics: readonly RubricDocument[], cells: GivenCell[]) {
  const derived = new Set(rubrics.flatMap((r) => r.dimensions.filter((d) => d.derived).map((d) => `${r.key}/${d.key}`)));
  const KEYS = ["item_id", "model", "grader", "rubric", "dimension", "repetition", "criterion", "value", "na", "label", "comment"] as const;
  const sorted = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(KEYS.map((k) => r[k]))).sort();
  const mine = (rows: Record<string, unknown>[]) => rows.filter((r) => !derived.has(`${r.rubric}/${r.dimension}`));

  const csvRes = await call(exportStudy, `/api/v1/studies/${f.study.id}/export?dataset=grades&format=csv`, bearer(token), { id: f.study.id });
  expect(csvRes.status).toBe(200);
  const parsed = Papa.parse<Record<string, string>>(String(csvRes.body), { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  const g = (s: string | null) => (s === null ? "" : guardFormula(s));
  const csvExpected = cells.map((c) => ({
    ...c,
    item_id: g(c.item_id),
    model: g(c.model),
    grader: g(c.grader),
    repetition: c.repetition === null || c.repetition === 0 ? "" : String(c.repetition),
    criterion: g(c.criterion),
    value: c.value === null ? "" : String(c.value),
    na: String(c.value === null),
    label: g(labelOf(rubrics, c)),
    comment: g(c.comment),
  }));
  expect(sorted(mine(parsed.data))).toEqual(sorted(csvExpected));

  const jsonRes = await call(exportStudy, `/api/v1/studies/${f.study.id}/export?dataset=grades&format=json`, bearer(token), { id: f.study.id });
  expect(jsonRes.status).toBe(200);
  const rows = (typeof jsonRes.body === "string" ? JSON.parse(jsonRes.body) : jsonRes.body) as Record<string, unknown>[];
  const jsonExpected = cells.map((c) => ({ ...c, repetition: c.repetition === 0 ? null : c.repetition, na: c.value === null, label: labelOf(rubrics, c) }));
  expect(sorted(mine(rows))).toEqual(sorted(jsonExpected));
  // N/A, a nominal value and a number are told apart in both formats.
  for (const r of mine(rows)) expect(r.value === null ? r.na : !r.na && (typeof r.value === "number" || typeof r.value === "string")).toBe(true);
}

/** The sets export carries the final values (nominal levels and N/A included) the sets API shows, rounded as the catalog states. */
async function expectSetsExportToHold(f: Fixture, token: string, original: Record<string, { status: string; finalScores: Body; totals: Body }>) {
  const res = await call(exportStudy, `/api/v1/studies/${f.study.id}/export?dataset=sets&format=json`, bearer(token), { id: f.study.id });
  expect(res.status).toBe(200);
  const rows = (typeof res.body === "string" ? JSON.parse(res.body) : res.body) as Body[];
  const round = (v: unknown): unknown =>
    typeof v === "number" ? Number(v.toFixed(4)) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, round(x)])) : v;
  expect(Object.fromEntries(rows.map((r) => [`${r.item_id}|${r.model.name}`, r.finalScores]))).toEqual(
    Object.fromEntries(Object.entries(original).map(([k, s]) => [k, round(s.finalScores)])),
  );
}

const setsOf = async (token: string, studyId: string) => {
  const r = await call(listSets, `/api/v1/studies/${studyId}/sets?pageSize=100`, bearer(token), { id: studyId });
  expect(r.status).toBe(200);
  return Object.fromEntries(r.body.sets.map((s: Body) => [`${s.externalId}|${s.model.name}`, { status: s.status, finalScores: s.finalScores, totals: s.totals }])) as Record<
    string,
    { status: string; finalScores: Body; totals: Body }
  >;
};

const lcg = (seed: number) => {
  let rng = seed;
  return () => ((rng = (rng * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
};

describe("property: a random valid rubric -> the grader's form -> grades -> final scores -> export -> re-imported archive", () => {
  it("gives the same numbers at every stage", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ n, doc, seed }) => {
        const resolved = resolveRubrics([doc], n);
        expect(resolved.ok, JSON.stringify(resolved)).toBe(true);
        const hasCriteria = doc.dimensions.some((d) => d.scale.kind === "criteria");
        const f = await makeGradableStudy({ rubrics: [doc], items: 2, models: 2, n, graders: 2, ...(hasCriteria ? { criteria: () => CRITERIA } : {}) });
        expect((await call(assign, `/api/v1/studies/${f.study.id}/assignments`, json(f.lead.token, "POST", { seed: "p" }), { id: f.study.id })).status).toBe(200);
        const { given, cells, rubrics } = await gradeThroughForm(f, lcg(seed), hasCriteria ? CRITERIA : null);

        const original = await setsOf(f.lead.token, f.study.id);
        expect(Object.keys(original)).toHaveLength(4);
        // The papers' rules worked out here from the values given, without the app's scoring code.
        for (const set of f.sets) {
          const item = `Q${Number((await getDb().qaItem.findUniqueOrThrow({ where: { id: set.itemId } })).externalId.slice(1))}`;
          const model = f.models.find((m) => m.id === set.modelId)!.name;
          expect(original[`${item}|${model}`]).toEqual(oracle(doc, given.get(set.id)!));
        }

        // The grades export gives back every value as it was given (nominal, N/A and criteria included).
        await expectGradesExportToHold(f, f.lead.token, rubrics, cells);
        await expectSetsExportToHold(f, f.lead.token, original);

        // score-long: one row per final set, a column per dimension with a final value, holding the final scores.
        const finalDims = doc.dimensions.filter((d) => d.scale.kind !== "criteria");
        const csv = await call(exportStudy, `/api/v1/studies/${f.study.id}/export?dataset=score-long`, bearer(f.lead.token), { id: f.study.id });
        const [header, ...rows] = String(csv.body).trim().split(/\r?\n/).filter(Boolean);
        const columns = header.split(",");
        expect(columns.slice(3)).toEqual(finalDims.map((d) => d.key));
        const finals = Object.values(original).filter((s) => s.finalScores);
        expect(rows).toHaveLength(finals.length);
        const exported = rows.map((line) => line.split(",").slice(3).map((v) => (v === "NA" ? null : v === "" ? "(missing)" : Number.isNaN(Number(v)) ? v : Number(v))));
        const expected = finals.map((s) => finalDims.map((d) => (s.finalScores.own[d.key] === "N/A" ? null : (s.finalScores.own[d.key] ?? null))));
        const sortRows = (xs: unknown[][]) => xs.map((x) => JSON.stringify(x)).sort();
        // Means are exported to 4 decimals (the catalog says so).
        expect(sortRows(exported)).toEqual(sortRows(expected.map((r) => r.map((v: unknown) => (typeof v === "number" ? Number(v.toFixed(4)) : v)))));

        // The study archive, imported again, scores every set the same.
        const archive = await call(exportStudy, `/api/v1/studies/${f.study.id}/export?dataset=study`, bearer(f.lead.token), { id: f.study.id });
        expect(archive.status).toBe(200);
        const imported = await call(importArchive, "/api/v1/study-archives", json(f.lead.token, "POST", archive.body));
        expect(imported.status, JSON.stringify(imported.body)).toBe(201);
        expect(await setsOf(f.lead.token, imported.body.id)).toEqual(original);
      }),
      { numRuns: 12, seed: 20261201, endOnFailure: true },
    );
  }, 240_000);

  // Scoring templates only: a preference template grades comparisons, not sets; preferences'
  // round trip through the comparisons export is tests/integration/pairwise-exports.test.ts.
  const SCORING_TEMPLATES = RUBRIC_TEMPLATES.filter((t) => !t.build().dimensions.some((d) => d.scale.kind === "preference"));
  it("leaves out only the three preference templates", () => {
    expect(SCORING_TEMPLATES.length).toBeGreaterThanOrEqual(8);
    expect(RUBRIC_TEMPLATES.length - SCORING_TEMPLATES.length).toBe(3);
  });
  it.each(SCORING_TEMPLATES.map((t) => [t.key]))("template %s: every value graded through the form comes back from the grades export, CSV and JSON", async (key) => {
    const f = await makeGradableStudy({ rubrics: [key], items: 2, models: 1, n: 2, graders: 2, criteria: () => CRITERIA });
    expect((await call(assign, `/api/v1/studies/${f.study.id}/assignments`, json(f.lead.token, "POST", { seed: "t" }), { id: f.study.id })).status).toBe(200);
    const { cells, rubrics } = await gradeThroughForm(f, lcg(key.length * 7919), CRITERIA);
    expect(cells.length).toBeGreaterThan(0);
    await expectGradesExportToHold(f, f.lead.token, rubrics, cells);
    await expectSetsExportToHold(f, f.lead.token, await setsOf(f.lead.token, f.study.id));
  }, 60_000);
});
