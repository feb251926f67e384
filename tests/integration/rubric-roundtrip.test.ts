import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { POST as assign } from "@/app/api/v1/studies/[id]/assignments/route";
import { GET as exportStudy } from "@/app/api/v1/studies/[id]/export/route";
import { GET as listSets } from "@/app/api/v1/studies/[id]/sets/route";
import { POST as importArchive } from "@/app/api/v1/study-archives/route";
import { getDb } from "@/lib/db/client";
import { closeExportPools } from "@/lib/exports/pool";
import { buildGradeBody, gradingFields, initialFormState, setScore } from "@/lib/grading/form-state";
import type { RubricDimension, RubricDocument } from "@/lib/rubrics/document";
import { resolveRubrics } from "@/lib/rubrics/study-rubrics";
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
      const levels = g.ordinal ? values.map((value) => ({ value, label: `Level ${value}` })) : Array.from({ length: g.categories }, (_, c) => ({ value: `cat_${c}`, label: `Category ${c}` }));
      const span = g.ordinal ? values[values.length - 1] - values[0] : 0;
      return {
        key: `d${i}`,
        name: `Dimension ${i}`,
        scope: n > 1 && g.eachAnswer && g.ordinal ? "each_answer" : "first_answer",
        scale: { kind: g.ordinal ? "ordinal" : "nominal", levels, ...(g.allowNA ? { allowNA: true } : {}) },
        ...(g.ordinal && g.threshold !== undefined && g.threshold <= span ? { threshold: g.threshold } : {}),
      };
    });

const rubric = (n: number) =>
  fc.integer({ min: 1, max: 4 }).chain((count) =>
    fc.tuple(...Array.from({ length: count }, (_, i) => dimension(i + 1, n))).map((dimensions): RubricDocument => {
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

/** A value for each of the grader's fields, from the seed: a level, or N/A where the scale allows it. */
function pick(d: RubricDimension, r: number): number | string | null {
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
  const values = graders.map((g) => Object.fromEntries(doc.dimensions.map((d) => [d.key, graderValue(d, g[d.key])])));
  const disagrees = doc.dimensions.some((d) => {
    const [a, b] = values.map((v) => v[d.key]);
    if (d.scale.kind === "nominal") return a !== b;
    if (d.threshold === undefined) return false;
    if ((typeof a === "number") !== (typeof b === "number")) return true;
    return typeof a === "number" && typeof b === "number" && Math.abs(a - b) + 1e-9 >= d.threshold;
  });
  if (disagrees) return { status: "awaiting_adjudication", finalScores: null, totals: null };
  const finalScores = Object.fromEntries(
    doc.dimensions.map((d) => {
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

describe("property: a random valid rubric -> the grader's form -> grades -> final scores -> export -> re-imported archive", () => {
  it("gives the same numbers at every stage", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ n, doc, seed }) => {
        const resolved = resolveRubrics([doc], n);
        expect(resolved.ok, JSON.stringify(resolved)).toBe(true);
        const f = await makeGradableStudy({ rubrics: [doc], items: 2, models: 2, n, graders: 2 });
        expect((await call(assign, `/api/v1/studies/${f.study.id}/assignments`, json(f.lead.token, "POST", { seed: "p" }), { id: f.study.id })).status).toBe(200);
        const shape = { rubrics: [doc], repetitions: n };
        let rng = seed;
        const next = () => ((rng = (rng * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
        /** What each grader gave, per set: dimension -> the value on each answer. */
        const given = new Map<string, Given[]>();
        for (const a of await getDb().assignment.findMany({ where: { studyId: f.study.id }, orderBy: { id: "asc" } })) {
          let state = initialFormState({ scores: [], harm: { flag: false, comment: null } }, shape);
          const mine: Given = {};
          for (const field of gradingFields(shape)) {
            const v = pick(field.dimension, next());
            state = setScore(state, field.key, v);
            (mine[field.dimension.key] ??= []).push(v);
          }
          given.set(a.responseSetId, [...(given.get(a.responseSetId) ?? []), mine]);
          const { body } = buildGradeBody(state, shape, { submit: true });
          const token = f.graders.find((g) => g.id === a.graderId)!.token;
          const put = await call(putGrades, `/api/v1/assignments/${a.id}/grades`, json(token, "PUT", body), { id: a.id });
          // Every form the rubric draws, filled in, is a valid submission.
          expect(put.status, JSON.stringify(put.body)).toBe(200);
        }

        const setsOf = async (studyId: string) => {
          const r = await call(listSets, `/api/v1/studies/${studyId}/sets?pageSize=100`, bearer(f.lead.token), { id: studyId });
          expect(r.status).toBe(200);
          return Object.fromEntries(
            r.body.sets.map((s: Body) => [`${s.externalId}|${s.model.name}`, { status: s.status, finalScores: s.finalScores, totals: s.totals }]),
          ) as Record<string, { status: string; finalScores: Body; totals: Body }>;
        };
        const original = await setsOf(f.study.id);
        expect(Object.keys(original)).toHaveLength(4);
        // The papers' rules worked out here from the values given, without the app's scoring code.
        for (const set of f.sets) {
          const item = `Q${Number((await getDb().qaItem.findUniqueOrThrow({ where: { id: set.itemId } })).externalId.slice(1))}`;
          const model = f.models.find((m) => m.id === set.modelId)!.name;
          expect(original[`${item}|${model}`]).toEqual(oracle(doc, given.get(set.id)!));
        }

        // score-long: one row per final set, a column per dimension, holding the final scores.
        const csv = await call(exportStudy, `/api/v1/studies/${f.study.id}/export?dataset=score-long`, bearer(f.lead.token), { id: f.study.id });
        const [header, ...rows] = String(csv.body).trim().split(/\r?\n/).filter(Boolean);
        const columns = header.split(",");
        expect(columns.slice(3)).toEqual(doc.dimensions.map((d) => d.key));
        const finals = Object.values(original).filter((s) => s.finalScores);
        expect(rows).toHaveLength(finals.length);
        const exported = rows.map((line) => line.split(",").slice(3).map((v) => (v === "NA" ? null : v === "" ? "(missing)" : Number.isNaN(Number(v)) ? v : Number(v))));
        const expected = finals.map((s) => doc.dimensions.map((d) => (s.finalScores.own[d.key] === "N/A" ? null : (s.finalScores.own[d.key] ?? null))));
        const sortRows = (xs: unknown[][]) => xs.map((x) => JSON.stringify(x)).sort();
        expect(sortRows(exported.map((r) => r.map((v) => (typeof v === "number" ? Number(v.toPrecision(12)) : v))))).toEqual(
          sortRows(expected.map((r) => r.map((v: unknown) => (typeof v === "number" ? Number(v.toPrecision(12)) : v)))),
        );

        // The study archive, imported again, scores every set the same.
        const archive = await call(exportStudy, `/api/v1/studies/${f.study.id}/export?dataset=study`, bearer(f.lead.token), { id: f.study.id });
        expect(archive.status).toBe(200);
        const imported = await call(importArchive, "/api/v1/study-archives", json(f.lead.token, "POST", archive.body));
        expect(imported.status, JSON.stringify(imported.body)).toBe(201);
        expect(await setsOf(imported.body.id)).toEqual(original);
      }),
      { numRuns: 12, seed: 20261201, endOnFailure: true },
    );
  }, 180_000);
});
