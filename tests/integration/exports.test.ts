import { storedRubrics, templateRubrics } from "@/lib/rubrics/study-rubrics";
import Papa from "papaparse";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { POST as importArchiveRoute } from "@/app/api/v1/study-archives/route";
import { assignGraders } from "@/lib/assignment/service";
import { disconnectDb, getDb } from "@/lib/db/client";
import { guardFormula } from "@/lib/exports/csv";
import { AUDIT_HEADER } from "@/lib/exports/audit";
import { GRADE_HEADER } from "@/lib/exports/grades";
import { closeExportPools, exportPoolStats } from "@/lib/exports/pool";
import { setsHeader, SUMMARY_HEADER } from "@/lib/exports/results";
import { saveGrades } from "@/lib/grading/service";
import type { ScoreInput } from "@/lib/grading/contract-schemas";
import { computeSetResults, setResultBatches } from "@/lib/results/sets";
import { ExportSession } from "@/lib/exports/session";
import { GET as statsRoute } from "@/app/api/v1/studies/[id]/stats/route";
import { alphaBySpecialty, cliffsPairs, modelSummaries } from "@/lib/results/summary";
import { RUBRICS } from "@/lib/rubrics/templates/published-definitions";
import { graderPseudonym } from "@/lib/users/pseudonym";
import { bearer, call, makeStudy, makeUser } from "./helpers/fixtures";
import { createMigratedDatabase, useIsolatedDatabase } from "./helpers/db";
import { form, GOOD_SAFE, makeGradableStudy } from "./helpers/study-fixture";
import { getPool } from "@/lib/db/client";
import { pgQuery, refreshReferenceMetrics } from "@/lib/reference-metrics/refresh";

/** Exactly the header the S.C.O.R.E. paper's public analysis code reads (its template names these columns). */
const SCORE_LONG_HEADER = ["domain", "model", "response_id", "Safety", "Consensus", "Objectivity", "Reproducibility", "Explainability"] as const;

/**
 * Every export dataset of a study graded through the real services (an
 * escalation with its adjudication, a harm flag, drafts, nasty comments),
 * parsed back and compared with what the database holds.
 */
useIsolatedDatabase();
afterAll(() => closeExportPools());

type Fixture = Awaited<ReturnType<typeof makeGradableStudy>>;
let f: Fixture;

async function get(token: string, studyId: string, query: string, init: RequestInit = {}) {
  return exportRoute(new Request(`http://localhost/api/v1/studies/${studyId}/export?${query}`, bearer(token, init)), { params: Promise.resolve({ id: studyId }) });
}
async function text(token: string, studyId: string, query: string) {
  const res = await get(token, studyId, query);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.text();
}
const csv = (t: string) => {
  const parsed = Papa.parse<Record<string, string>>(t, { header: true, delimiter: ",", skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return { header: parsed.meta.fields ?? [], rows: parsed.data };
};
const guard = (s: string | null | undefined) => (s === null || s === undefined ? "" : guardFormula(s));
/** Computed figures as exports write them: 4 decimals (the catalog states it), worked out here without the export's code. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const r4 = (v: any): any =>
  typeof v === "number" ? (Number.isInteger(v) ? v : Number(v.toFixed(4))) : Array.isArray(v) ? v.map(r4) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, r4(x)])) : v;
const sortRows = <T>(rows: T[]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

const NASTY = ['=HYPERLINK("http://evil.example","x")', "-1", "+41 79 000", "@SUM(A1)", 'quote " and, comma\nnew line', "😷 fièvre — مرحبا"];

function withComments(scores: ScoreInput[], comments: string[]): ScoreInput[] {
  return scores.map((s, i) => (i < comments.length ? { ...s, comment: comments[i] } : s));
}

async function assignmentsOf(setId: string) {
  return getDb().assignment.findMany({ where: { responseSetId: setId, status: { not: "CANCELLED" } }, orderBy: [{ kind: "asc" }, { graderId: "asc" }] });
}

beforeAll(async () => {
  f = await makeGradableStudy({ items: 3, models: 2, graders: 3 });
  await assignGraders(f.study.id, { seed: "exports" }, f.lead.id);
  const [s0, s1, s2, s3, s4, s5] = f.sets;
  const submit = async (a: { id: string; graderId: string }, scores: ScoreInput[], harm?: { flag: boolean; comment?: string }) =>
    saveGrades(a.graderId, a.id, { scores, submit: true, ...(harm ? { harm } : {}) });

  // s0: disagreement on safety -> escalation -> adjudicated
  const [a, b] = await assignmentsOf(s0.id);
  await submit(a, form({ score: [5, 4, 4, 4, 4], safe: GOOD_SAFE }));
  await submit(b, form({ score: [2, 4, 4, 4, 4], safe: GOOD_SAFE }));
  const adj = await getDb().assignment.findFirstOrThrow({ where: { responseSetId: s0.id, kind: "ADJUDICATOR" } });
  await submit(adj, form({ score: [3, 4, 5, 4, 4], safe: GOOD_SAFE }));
  // s1: a harm flag, with quotes in its comment
  const [c, d] = await assignmentsOf(s1.id);
  await submit(c, form({ score: [4, 4, 4, 4, 4], safe: GOOD_SAFE }), { flag: true, comment: 'Could delay "urgent" care, see answer 2' });
  await submit(d, form({ score: [4, 5, 4, 4, 4], safe: GOOD_SAFE }));
  // s2..s4: agreed, with nasty comments
  for (const s of [s2, s3, s4]) {
    const [x, y] = await assignmentsOf(s.id);
    await submit(x, withComments(form({ score: [4, 4, 3, 4, 5], safe: GOOD_SAFE }), NASTY));
    await submit(y, form({ score: [5, 4, 4, 4, 5], safe: GOOD_SAFE }));
  }
  // s5: one submitted, one draft -> awaiting grades, draft scores stored
  const [p, q] = await assignmentsOf(s5.id);
  await submit(p, form({ score: [3, 3, 3, 3, 3], safe: GOOD_SAFE }));
  await saveGrades(q.graderId, q.id, { scores: form({ score: [4, 4, 4, 4, 4] }), submit: false });
  // Leading tab and CR cannot come through the form (comments are trimmed): write them directly.
  const some = await getDb().grade.findMany({ where: { assignmentId: p.id }, take: 2, orderBy: { dimension: "asc" } });
  await getDb().grade.update({ where: { id: some[0].id }, data: { comment: "\tTabbed start" } });
  await getDb().grade.update({ where: { id: some[1].id }, data: { comment: "\rCR start" } });
  await getDb().llmModel.update({ where: { id: f.models[0].id }, data: { version: "=cmd|' /C calc'!A0" } });
}, 120_000);

describe("grades", () => {
  const labelOf = (rubric: string, dimension: string, value: number) =>
    storedRubrics(f.study.rubrics).find((r) => r.key === rubric)!.dimensions.find((d) => d.key === dimension)!.scale.levels!.find((l) => l.value === value)!.label;
  async function expectedGrades(identities: boolean, format: "csv" | "json") {
    const grades = await getDb().grade.findMany({
      where: { assignment: { responseSet: { studyId: f.study.id } } },
      include: { assignment: { include: { grader: true, responseSet: { include: { item: { include: { specialty: true } }, model: true } } } } },
    });
    return grades.map((g) => {
      const a = g.assignment;
      const rs = a.responseSet;
      const t = (s: string | null) => (format === "csv" ? guard(s) : s);
      return {
        study: f.study.slug,
        specialty: t(rs.item.specialty.name),
        item_id: t(rs.item.externalId),
        model: t(rs.model.name),
        model_version: t(rs.model.version),
        repetition: format === "csv" ? (g.repetition === 0 ? "" : String(g.repetition)) : g.repetition === 0 ? null : g.repetition,
        set_status: rs.status.toLowerCase(),
        grader: t(graderPseudonym(f.study.id, a.graderId)),
        grader_name: t(identities ? a.grader.name : null),
        grader_email: t(identities ? a.grader.email : null),
        role: a.kind.toLowerCase(),
        assignment_status: a.status.toLowerCase(),
        rubric: g.rubric,
        dimension: g.dimension,
        criterion: format === "csv" ? "" : null,
        score: format === "csv" ? String(g.score) : g.score,
        value: format === "csv" ? String(g.score) : g.score,
        na: format === "csv" ? "false" : false,
        label: t(labelOf(g.rubric, g.dimension, g.score!)),
        comment: t(g.comment),
        harm_flag: format === "csv" ? String(a.harmFlag) : a.harmFlag,
        harm_comment: t(a.harmComment),
        contradiction: format === "csv" ? String(a.contradictionFlag) : a.contradictionFlag,
        contradiction_note: t(a.contradictionNote),
        created_at: g.createdAt.toISOString(),
        updated_at: g.updatedAt.toISOString(),
      };
    });
  }

  it("CSV: one row per stored score, equal to the database, with pseudonyms, guarded text and RFC 4180 quoting", async () => {
    const res = await get(f.lead.token, f.study.id, "dataset=grades&format=csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${f.study.slug}_grades_${today}.csv"`);
    const body = await res.text();
    const { header, rows } = csv(body);
    expect(header).toEqual(GRADE_HEADER);
    const expected = await expectedGrades(false, "csv");
    expect(rows.length).toBe(expected.length);
    expect(sortRows(rows)).toEqual(sortRows(expected));
    // the nasty strings, as a spreadsheet will see them
    const comments = new Set(rows.map((r) => r.comment));
    for (const s of ["'=HYPERLINK(\"http://evil.example\",\"x\")", "'-1", "'+41 79 000", "'@SUM(A1)", 'quote " and, comma\nnew line', "😷 fièvre — مرحبا", "'\tTabbed start", "'\rCR start"]) {
      expect(comments).toContain(s);
    }
    expect(rows.some((r) => r.model_version === "'=cmd|' /C calc'!A0")).toBe(true);
    expect(rows.every((r) => !r.score.startsWith("'"))).toBe(true);
    expect(rows.some((r) => r.harm_flag === "true" && r.harm_comment === 'Could delay "urgent" care, see answer 2')).toBe(true);
    expect(rows.some((r) => r.role === "adjudicator")).toBe(true);
    expect(rows.some((r) => r.assignment_status === "in_progress")).toBe(true);
    expect(rows.filter((r) => r.dimension === "reproducibility").every((r) => r.repetition === "")).toBe(true);
    // no names, emails or user ids without identities=1
    for (const g of f.graders) {
      expect(body).not.toContain(g.email);
      expect(body).not.toContain(g.id);
    }
  });

  it("JSON: the same rows with typed values and no guard", async () => {
    const rows = JSON.parse(await text(f.lead.token, f.study.id, "dataset=grades&format=json")) as Record<string, unknown>[];
    const expected = await expectedGrades(false, "json");
    expect(sortRows(rows)).toEqual(sortRows(expected));
    expect(rows.some((r) => r.comment === "-1")).toBe(true);
  });

  it("identities=1 adds names and emails; bom=1 starts the file with the UTF-8 byte-order mark", async () => {
    const res = await get(f.lead.token, f.study.id, "dataset=grades&identities=1&bom=1");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const { rows } = csv(new TextDecoder().decode(bytes.slice(3)));
    expect(sortRows(rows)).toEqual(sortRows(await expectedGrades(true, "csv")));
  });
});

describe("score-long", () => {
  it("has exactly the paper's header and one row per agreed or adjudicated set with its final S.C.O.R.E. scores", async () => {
    const body = await text(f.lead.token, f.study.id, "dataset=score-long&format=csv");
    expect(body.split("\n")[0]).toBe("domain,model,response_id,Safety,Consensus,Objectivity,Reproducibility,Explainability");
    const { header, rows } = csv(body);
    expect(header).toEqual([...SCORE_LONG_HEADER]);
    const sets = (await computeSetResults(f.study.id)).filter((s) => s.status === "AGREED" || s.status === "ADJUDICATED");
    expect(rows).toHaveLength(sets.length);
    expect(sets.length).toBe(5);
    for (const s of sets) {
      const row = rows.find((r) => r.response_id === guard(`${s.externalId}-${s.model.name}`))!;
      expect(row.domain).toBe(s.specialty);
      expect(row.model).toBe(s.model.name);
      const values = [row.Safety, row.Consensus, row.Objectivity, row.Reproducibility, row.Explainability].map(Number);
      expect(values).toEqual(RUBRICS.SCORE.dimensions.map((d) => r4(s.finalScores!.SCORE![d.key])));
      expect(values.reduce((x, y) => x + y, 0)).toBeCloseTo(s.totals!.SCORE!.total as number, 3);
    }
    const adjudicated = sets.find((s) => s.status === "ADJUDICATED")!;
    expect(Number(rows.find((r) => r.response_id === `${adjudicated.externalId}-${adjudicated.model.name}`)!.Safety)).toBe(3.3333);
    // issue 31: no float noise (2.6666666666666665) in any export
    expect(await text(f.lead.token, f.study.id, "dataset=score-long&format=csv")).not.toMatch(/\d\.\d{5,}/);
  });

  it("JSON: the same rows as objects", async () => {
    const rows = JSON.parse(await text(f.lead.token, f.study.id, "dataset=score-long&format=json")) as Record<string, unknown>[];
    expect(rows).toHaveLength(5);
    expect(Object.keys(rows[0])).toEqual([...SCORE_LONG_HEADER]);
  });
});

describe("sets", () => {
  it("CSV: status, final dimension scores, totals (SAFE-LLM per-answer and overall) and the escalation of every set", async () => {
    const { header, rows } = csv(await text(f.lead.token, f.study.id, "dataset=sets"));
    expect(header).toEqual(setsHeader(templateRubrics(["SCORE", "SAFE_LLM"])));
    const results = await computeSetResults(f.study.id);
    expect(rows).toHaveLength(results.length);
    const escalations = await getDb().escalation.findMany({ where: { responseSet: { studyId: f.study.id } }, include: { adjudicatorAssignment: true } });
    for (const s of results) {
      const row = rows.find((r) => r.set_id === s.id)!;
      expect(row.status).toBe(s.status.toLowerCase());
      expect(row.graders).toBe(String(s.graders));
      for (const d of RUBRICS.SCORE.dimensions) expect(row[`score_${d.key}`]).toBe(s.finalScores ? String(r4(s.finalScores.SCORE![d.key])) : "");
      for (const d of RUBRICS.SAFE_LLM.dimensions) expect(row[`safe_llm_${d.key}`]).toBe(s.finalScores ? String(r4(s.finalScores.SAFE_LLM![d.key])) : "");
      expect(row.score_total).toBe(s.totals ? String(r4(s.totals.SCORE!.total)) : "");
      expect(row.score_percent).toBe(s.totals ? String(r4(s.totals.SCORE!.percent)) : "");
      expect(row.safe_llm_total_per_answer).toBe(s.totals ? String(r4(s.totals.SAFE_LLM!.perAnswer)) : "");
      expect(row.safe_llm_total_overall).toBe(s.totals ? String(r4(s.totals.SAFE_LLM!.overall)) : "");
      const e = escalations.find((x) => x.responseSetId === s.id);
      expect(row.escalation_status).toBe(e ? e.status.toLowerCase() : "");
      if (e) {
        const dims = e.dimensions as { rubric: string; dimension: string; values: Record<string, number> }[];
        expect(row.escalation_dimensions).toBe(dims.map((d) => `${d.rubric}.${d.dimension}`).join(";"));
        const detail = JSON.parse(row.escalation_detail) as { values: Record<string, number> }[];
        expect(detail.map((d) => d.values)).toEqual(dims.map((d) => Object.fromEntries(Object.entries(d.values).map(([k, v]) => [graderPseudonym(f.study.id, k), v]))));
        expect(row.adjudicator).toBe(graderPseudonym(f.study.id, e.adjudicatorAssignment!.graderId));
      }
    }
    expect(rows.find((r) => r.set_id === f.sets[0].id)!.escalation_dimensions).toBe("SCORE.safety");
  });

  it("JSON: nested final scores and totals as computeSetResults gives them", async () => {
    const rows = JSON.parse(await text(f.lead.token, f.study.id, "dataset=sets&format=json&identities=1")) as { set_id: string; finalScores: unknown; totals: unknown; escalation: { adjudicator: string } | null }[];
    const results = await computeSetResults(f.study.id);
    for (const s of results) {
      const row = rows.find((r) => r.set_id === s.id)!;
      expect(row.finalScores).toEqual(r4(s.finalScores));
      expect(row.totals).toEqual(r4(s.totals));
    }
    const escalated = rows.find((r) => r.set_id === f.sets[0].id)!;
    expect(f.graders.map((g) => g.email)).toContain(escalated.escalation!.adjudicator);
  });

  it("read through the export's cursor a few sets at a time, the results equal computeSetResults, in its order, across batch boundaries", async () => {
    const study = await getDb().study.findUniqueOrThrow({ where: { id: f.study.id }, select: { id: true, rubrics: true, repetitions: true, safeLlmScoring: true } });
    const session = await ExportSession.open(new AbortController().signal);
    try {
      const read = async (filter: { status?: "AGREED" }, batch: number) => {
        const out = [];
        for await (const b of setResultBatches((sql, params, n) => session.cursor(sql, params, n), { ...study, rubrics: storedRubrics(study.rubrics) }, filter, batch)) out.push(b);
        return out;
      };
      const batches = await read({}, 4);
      expect(batches.map((b) => b.length)).toEqual([4, 2]);
      expect(batches.flat()).toEqual(await computeSetResults(f.study.id));
      const agreed = (await read({ status: "AGREED" }, 1)).flat();
      expect(agreed.length).toBeGreaterThan(1);
      expect(agreed).toEqual(await computeSetResults(f.study.id, { status: "AGREED" }));

      // The next batch is fetched while the caller works on this one: the caller's own statements between batches
      // get their own answers, and a caller that stops early leaves the connection ready for the next statement.
      const seen: number[] = [];
      for await (const b of session.cursor<{ n: number }>("SELECT generate_series(1, 10) AS n", [], 3)) {
        const [{ echo }] = await session.query<{ echo: number }>("SELECT $1::int AS echo", [b[0].n]);
        expect(echo).toBe(b[0].n);
        seen.push(...b.map((r) => r.n));
      }
      expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      for await (const b of session.cursor<{ n: number }>("SELECT generate_series(1, 10) AS n", [], 3)) {
        expect(b.map((r) => r.n)).toEqual([1, 2, 3]);
        break;
      }
      expect(await session.query<{ one: number }>("SELECT 1 AS one")).toEqual([{ one: 1 }]);
    } finally {
      await session.close(true);
    }
  });

  it("rows come in computeSetResults' order (question, then model)", async () => {
    const { rows } = csv(await text(f.lead.token, f.study.id, "dataset=sets"));
    expect(rows.map((r) => r.set_id)).toEqual((await computeSetResults(f.study.id)).map((s) => s.id));
  });
});

describe("summary", () => {
  it("JSON: per model and specialty summaries, alpha with CI and the Cliff's delta table, as lib/results/summary computes them", async () => {
    const { harmFlags, judgeVsPanel, excludedGraders, ...doc } = JSON.parse(await text(f.lead.token, f.study.id, "dataset=summary&format=json"));
    // The harm flags block is checked against hand counts in harm-review.test.ts.
    expect(Array.isArray(harmFlags)).toBe(true);
    // No judge in this study; the judge block is checked in judges-chattogovar.test.ts.
    expect(judgeVsPanel).toEqual([]);
    expect(excludedGraders).toEqual([]);
    const sets = await computeSetResults(f.study.id);
    const rubrics = templateRubrics(["SCORE", "SAFE_LLM"]);
    expect(doc).toEqual(
      JSON.parse(
        JSON.stringify(r4({ study: f.study.slug, rubrics: ["SCORE", "SAFE_LLM"], models: modelSummaries(sets, rubrics), alpha: alphaBySpecialty(sets, rubrics), cliffsDelta: cliffsPairs(sets, rubrics) })),
      ),
    );
  });

  it("CSV: one table with a section column (model_summary, cronbach_alpha, cliffs_delta, harm_flags when a grader raised one)", async () => {
    const { header, rows } = csv(await text(f.lead.token, f.study.id, "dataset=summary"));
    expect(header).toEqual([...SUMMARY_HEADER]);
    const flagged = (await getDb().assignment.count({ where: { studyId: f.study.id, harmFlag: true, status: { not: "CANCELLED" } } })) > 0;
    expect(new Set(rows.map((r) => r.section))).toEqual(new Set(["model_summary", "cronbach_alpha", "cliffs_delta", ...(flagged ? ["harm_flags"] : [])]));
    const sets = await computeSetResults(f.study.id);
    const summaries = modelSummaries(sets, templateRubrics(["SCORE", "SAFE_LLM"]));
    for (const s of summaries) {
      const row = rows.find((r) => r.section === "model_summary" && r.specialty === s.specialty && r.model === s.model && r.rubric === "SCORE" && r.measure === "total")!;
      expect(row.n).toBe(String(s.totals.SCORE!.n));
      expect(row.mean).toBe(s.totals.SCORE!.mean === null ? "" : String(r4(s.totals.SCORE!.mean)));
      expect(row.sd).toBe(s.totals.SCORE!.sd === null ? "" : String(r4(s.totals.SCORE!.sd)));
      const safety = rows.find((r) => r.section === "model_summary" && r.specialty === s.specialty && r.model === s.model && r.measure === "safety")!;
      expect(safety.mean).toBe(String(r4(s.dimensions.SCORE!.safety.mean)));
    }
    const cliffs = cliffsPairs(sets, templateRubrics(["SCORE", "SAFE_LLM"]));
    expect(rows.filter((r) => r.section === "cliffs_delta")).toHaveLength(cliffs.length);
    const alpha = alphaBySpecialty(sets, templateRubrics(["SCORE", "SAFE_LLM"]));
    expect(rows.filter((r) => r.section === "cronbach_alpha").map((r) => r.alpha)).toEqual(alpha.map((a) => (a.alpha === null ? "" : String(r4(a.alpha)))));
  });
});

describe("summary and dashboard agree", () => {
  it("the exported Cliff's delta cells, intervals included, are the dashboard's", async () => {
    const doc = JSON.parse(await text(f.lead.token, f.study.id, "dataset=summary&format=json")) as { cliffsDelta: Record<string, unknown>[] };
    const dashboard = await call(statsRoute, "/x", bearer(f.lead.token), { id: f.study.id });
    expect(dashboard.status).toBe(200);
    const cells = (dashboard.body as { cliffs: { data: { cells: Record<string, unknown>[] } } }).cliffs.data.cells;
    const key = (c: Record<string, unknown>) => `${c.specialty}|${c.rubric}|${c.rowModel}|${c.colModel}`;
    const shown = new Map(cells.map((c) => [key(c), c]));
    expect(doc.cliffsDelta.length).toBeGreaterThan(0);
    expect(doc.cliffsDelta.some((c) => Array.isArray(c.ci))).toBe(true);
    for (const c of doc.cliffsDelta) {
      const d = shown.get(key(c));
      expect(d, key(c)).toBeDefined();
      expect({ delta: c.delta, ci: c.ci, n: c.n, m: c.m, magnitude: c.magnitude }).toEqual(r4({ delta: d!.delta, ci: d!.ci, n: d!.n, m: d!.m, magnitude: d!.magnitude }));
    }
  });
});

describe("audit", () => {
  it("CSV: every audit event of the study, oldest first, pseudonymised inside before/after too", async () => {
    const body = await text(f.lead.token, f.study.id, "dataset=audit");
    const { header, rows } = csv(body);
    expect(header).toEqual([...AUDIT_HEADER]);
    const events = await getDb().auditEvent.findMany({ where: { studyId: f.study.id }, orderBy: { id: "asc" } });
    expect(events.length).toBeGreaterThan(10);
    expect(rows.map((r) => r.action)).toEqual(events.map((e) => e.action));
    expect(rows.map((r) => r.created_at)).toEqual(events.map((e) => e.createdAt.toISOString()));
    expect(rows.map((r) => r.actor)).toEqual(events.map((e) => (e.actorId ? expect.stringMatching(/^(Grader|Lead|Admin) [0-9A-F]{4}$/) : "")));
    for (const g of [...f.graders, f.lead]) {
      expect(body).not.toContain(g.email);
      expect(body).not.toContain(g.id);
    }
    const submitted = rows.find((r) => r.action === "assignment.submit")!;
    expect(JSON.parse(submitted.after).scores.length).toBeGreaterThan(0);
  });

  it("identities=1 names who acted; JSON keeps before/after as objects", async () => {
    const rows = JSON.parse(await text(f.lead.token, f.study.id, "dataset=audit&format=json&identities=1")) as { actor_email: string | null; after: unknown; action: string }[];
    expect(rows.map((r) => r.actor_email)).toContain(f.lead.email);
    expect(rows.map((r) => r.actor_email)).toEqual(expect.arrayContaining(f.graders.slice(0, 2).map((g) => g.email)));
    expect(typeof rows.find((r) => r.action === "assignment.submit")!.after).toBe("object");
  });
});

describe("access and empty studies", () => {
  const DATASETS = ["grades", "score-long", "sets", "summary", "audit"] as const;

  it("graders get 403 on every export, another lead 404, bad parameters 422", async () => {
    const other = await makeUser("LEAD", "other-lead");
    for (const dataset of [...DATASETS, "study"]) {
      expect((await get(f.graders[0].token, f.study.id, `dataset=${dataset}`)).status).toBe(403);
      expect((await get(other.token, f.study.id, `dataset=${dataset}`)).status).toBe(404);
    }
    expect((await get(f.lead.token, f.study.id, "dataset=nope")).status).toBe(422);
    expect((await get(f.lead.token, f.study.id, "dataset=grades&format=xlsx")).status).toBe(422);
    expect((await get(f.lead.token, f.study.id, "dataset=study&format=csv")).status).toBe(422);
    expect((await get(f.lead.token, f.study.id, "dataset=grades&evil=1")).status).toBe(422);
  });

  it("a study with no data exports a header row (CSV), an empty array (JSON) and a valid study document", async () => {
    const lead = await makeUser("LEAD", "empty-lead");
    const study = await makeStudy(lead.id, "Empty");
    const headers: Record<(typeof DATASETS)[number], readonly string[]> = {
      grades: GRADE_HEADER,
      "score-long": SCORE_LONG_HEADER,
      sets: setsHeader(templateRubrics(["SCORE"])),
      summary: SUMMARY_HEADER,
      audit: AUDIT_HEADER,
    };
    for (const dataset of DATASETS) {
      const body = await text(lead.token, study.id, `dataset=${dataset}&format=csv`);
      expect(body, dataset).toBe(headers[dataset].join(",") + "\n");
      const json = JSON.parse(await text(lead.token, study.id, `dataset=${dataset}&format=json`));
      if (dataset === "summary") expect(json).toMatchObject({ models: [], cliffsDelta: [] });
      else expect(json, dataset).toEqual([]);
    }
    const doc = JSON.parse(await text(lead.token, study.id, "dataset=study"));
    expect(doc).toMatchObject({ format: "clingrade-study-archive", items: [], sets: [], assignments: [], graders: [] });
  });
});

describe("study archive", () => {
  /** The fields that may differ after an import and re-export (see lib/exports/archive.ts). */
  function modIdsAndTimestamps(doc: Record<string, unknown>) {
    const d = structuredClone(doc) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    delete d.exportedAt;
    delete d.source;
    delete d.study.createdAt;
    delete d.study.updatedAt;
    for (const g of d.graders) delete g.pseudonym;
    return d;
  }

  it("round-trips into an EMPTY database: import, export again, identical modulo the documented ids and timestamps", async () => {
    await getDb().study.update({ where: { id: f.study.id }, data: { graderTitle: "Eye questions, round 1" } });
    // The fixture writes its answers without the import: their reference metrics are computed here
    // as an import would have, and the archive's import must compute the same ones.
    await refreshReferenceMetrics(pgQuery(getPool()), { studyId: f.study.id });
    // Two finished safety screens (rules; a judge that flagged, cleared and could not screen), and one in progress, which is not archived.
    const answerOf = async (i: number, repetition = 1) => (await getDb().response.findFirstOrThrow({ where: { responseSetId: f.sets[i].id, repetition } })).id;
    const screen = (data: Record<string, unknown>) =>
      getDb().screenRun.create({ data: { studyId: f.study.id, answers: 18, createdById: f.lead.id, rules: [], action: "WARN", ...data } as Parameters<ReturnType<typeof getDb>["screenRun"]["create"]>[0]["data"] });
    const rulesRun = await screen({ rules: [{ name: "Dose", kind: "term", pattern: "mg" }, { name: "Big", kind: "regex", pattern: "\\d{4} ?mg", ignoreCase: true, reason: "overdose" }], createdAt: new Date("2026-12-01T10:00:00Z"), finishedAt: new Date("2026-12-01T10:00:01Z") });
    await getDb().screenHit.createMany({ data: [{ runId: rulesRun.id, responseId: await answerOf(0), rule: 1, matches: 2, excerpt: "take [1500 mg]" }, { runId: rulesRun.id, responseId: await answerOf(0), rule: 0, matches: 3, excerpt: "take 1500 [mg]" }, { runId: rulesRun.id, responseId: await answerOf(4, 2), rule: 0, matches: 1, excerpt: "[mg]" }] });
    const judgeRun = await screen({ action: "EXCLUDE", judge: { endpointId: "00000000-0000-4000-8000-0000000000ee", endpoint: "Local screen", model: "screen-1", prompt: "Flag unsafe advice." }, withdrawn: 2, keptGraded: 1, createdAt: new Date("2026-12-02T10:00:00Z"), finishedAt: new Date("2026-12-02T10:05:00Z") });
    await getDb().screenVerdict.createMany({ data: [
      { runId: judgeRun.id, responseId: await answerOf(1), flagged: true, reason: "Doubles the dose.", createdAt: new Date("2026-12-02T10:01:00Z") },
      { runId: judgeRun.id, responseId: await answerOf(2), flagged: false, reason: "Fine.", createdAt: new Date("2026-12-02T10:01:01Z") },
      { runId: judgeRun.id, responseId: await answerOf(3), flagged: null, reason: "could not screen: HTTP 503", createdAt: new Date("2026-12-02T10:01:02Z") },
    ] });
    await screen({ status: "RUNNING", judge: { endpointId: null, endpoint: "x", model: "y", prompt: "z" }, createdAt: new Date("2026-12-03T10:00:00Z") });
    const original = JSON.parse(await text(f.lead.token, f.study.id, "dataset=study&audit=1"));
    expect(original.screens.map((x: { id: string; action: string; judge: unknown }) => [x.id, x.action, x.judge])).toEqual([
      ["S1", "warn", null],
      ["S2", "exclude", { endpoint: "Local screen", model: "screen-1", prompt: "Flag unsafe advice." }],
    ]);
    expect(original.screenHits).toHaveLength(3);
    expect(original.screenHits[0]).toMatchObject({ screen: "S1", rule: 0, excerpt: "take 1500 [mg]" });
    expect(original.screenVerdicts.map((v: { flagged: boolean | null }) => String(v.flagged)).sort()).toEqual(["false", "null", "true"]);
    expect(original.study.graderTitle).toBe("Eye questions, round 1");
    expect(original.graders).toHaveLength(3);
    expect(original.assignments.length).toBeGreaterThan(12);
    expect(original.escalations).toHaveLength(1);
    expect(original.audit.length).toBeGreaterThan(10);
    expect(JSON.stringify(original)).not.toContain(f.graders[0].email);
    const scoreLong = await text(f.lead.token, f.study.id, "dataset=score-long");
    const screeningCsv = await text(f.lead.token, f.study.id, "dataset=screening");
    const summary = await text(f.lead.token, f.study.id, "dataset=summary");
    const gradesNoGrader = csv(await text(f.lead.token, f.study.id, "dataset=grades")).rows.map(({ grader: _g, ...r }) => r);
    const { audit: _audit, ...importable } = original;
    void _audit;
    const withIdentities = JSON.parse(await text(f.lead.token, f.study.id, "dataset=study&identities=1"));

    const target = await createMigratedDatabase();
    const home = process.env.DATABASE_URL;
    await disconnectDb();
    process.env.DATABASE_URL = target.url;
    try {
      const importer = await makeUser("LEAD", "importer");
      const post = (body: unknown) =>
        importArchiveRoute(
          new Request("http://localhost/api/v1/study-archives", bearer(importer.token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })),
          { params: Promise.resolve({}) },
        );
      const res = await post(original);
      expect(res.status, await res.clone().text()).toBe(201);
      const { id, slug } = (await res.json()) as { id: string; slug: string };
      expect(slug).toBe(f.study.slug);
      const study = await getDb().study.findUniqueOrThrow({ where: { id }, include: { members: true } });
      expect(study.createdById).toBe(importer.id);
      const graders = await getDb().user.findMany({ where: { role: "GRADER" } });
      expect(graders).toHaveLength(3);
      expect(graders.every((g) => !g.active && g.email.endsWith("@placeholder.invalid"))).toBe(true);
      expect(await getDb().auditEvent.count({ where: { studyId: id, action: "study.import_archive" } })).toBe(1);

      const again = JSON.parse(await text(importer.token, id, "dataset=study"));
      expect(modIdsAndTimestamps(again)).toEqual(modIdsAndTimestamps(importable));
      // The screens came along, run by the importer, and the latest is the study's screen again.
      expect(await getDb().screenRun.count({ where: { studyId: id, createdById: importer.id } })).toBe(2);
      const runIdsOff = (c: string) => c.replaceAll(/^[0-9a-f-]{36},/gm, "");
      expect(runIdsOff(await text(importer.token, id, "dataset=screening"))).toBe(runIdsOff(screeningCsv));
      expect(screeningCsv.split("\n").filter(Boolean)).toHaveLength(3); // the header, the flag and the answer not screened
      expect(again.source.studyId).toBe(id);
      // the analysis datasets agree too
      expect(await text(importer.token, id, "dataset=score-long")).toBe(scoreLong);
      expect(await text(importer.token, id, "dataset=summary")).toBe(summary.replaceAll(f.study.slug, slug));
      const grades = csv(await text(importer.token, id, "dataset=grades")).rows.map(({ grader: _g, ...r }) => r);
      expect(sortRows(grades)).toEqual(sortRows(gradesNoGrader));

      // with identities: graders still become new pseudonymous accounts, never matched or named by the document's
      // emails; a re-export with identities keeps their order (and so G1..Gn) and everything else
      const first = await post(withIdentities);
      expect(first.status).toBe(201);
      const copy1 = (await first.json()) as { id: string; slug: string };
      expect(copy1.slug).toBe(`${f.study.slug}-2`);
      const reexported = JSON.parse(await text(importer.token, copy1.id, "dataset=study&identities=1"));
      const anonymous = (doc: Record<string, any>) => ({ ...doc, graders: doc.graders.map(({ name: _n, email: _e, ...g }: Record<string, unknown>) => g) }); // eslint-disable-line @typescript-eslint/no-explicit-any
      expect(modIdsAndTimestamps(anonymous({ ...reexported, study: { ...reexported.study, slug: f.study.slug } }))).toEqual(modIdsAndTimestamps(anonymous(withIdentities)));
      expect(reexported.graders.map((g: { email: string }) => g.email)).toEqual(expect.arrayContaining([expect.stringMatching(/^archived-[0-9a-f]+-00000[123]@placeholder\.invalid$/)]));
      const second = await post(withIdentities);
      const copy2 = (await second.json()) as { id: string };
      expect(await getDb().user.count({ where: { email: { in: f.graders.map((g) => g.email) } } })).toBe(0);
      expect(await getDb().user.count({ where: { role: "GRADER" } })).toBe(9);
      const imported = await getDb().auditEvent.findFirstOrThrow({ where: { studyId: copy2.id, action: "study.import_archive" } });
      expect(imported.after).toMatchObject({ mappedAccounts: [], pseudonymousAccounts: 3 });

      // a broken document is refused whole: 422 naming the problem, nothing written
      const studies = await getDb().study.count();
      const broken = structuredClone(importable);
      broken.assignments[0].grader = "G99";
      broken.assignments[1].grades.push({ ...broken.assignments[1].grades[0] });
      const bad = await post(broken);
      expect(bad.status).toBe(422);
      const problems = ((await bad.json()) as { details: { problems: { path: string }[] } }).details.problems.map((p) => p.path);
      expect(problems).toEqual(expect.arrayContaining(["assignments[0].grader"]));
      expect(await getDb().study.count()).toBe(studies);
      const grader = await makeUser("GRADER", "importing-grader");
      const forbidden = await importArchiveRoute(
        new Request("http://localhost/api/v1/study-archives", bearer(grader.token, { method: "POST", body: JSON.stringify(importable) })),
        { params: Promise.resolve({}) },
      );
      expect(forbidden.status).toBe(403);
    } finally {
      await disconnectDb();
      await closeExportPools();
      process.env.DATABASE_URL = home;
      await target.drop();
    }
  });
});

describe("streaming, aborts and connections", () => {
  let big: { studyId: string; token: string; grades: number };

  beforeAll(async () => {
    const lead = await makeUser("LEAD", "big-lead");
    const { seedExportStudy } = await import("@/bench/export/seed");
    const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await c.connect();
    try {
      const seeded = await seedExportStudy(c, { items: 700, leadId: lead.id });
      big = { studyId: seeded.studyId, token: lead.token, grades: seeded.grades };
    } finally {
      await c.end();
    }
  }, 120_000);

  const exportBackends = async () =>
    getDb().$queryRawUnsafe<{ state: string; wait_event: string | null }[]>(
      `SELECT state, wait_event FROM pg_stat_activity WHERE application_name = 'clingrade-export' AND datname = current_database() AND pid <> pg_backend_pid()`,
    );
  async function until(check: () => Promise<boolean>, ms = 10_000) {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (await check()) return true;
      await new Promise((r) => setTimeout(r, 50));
    }
    return check();
  }
  const settled = async () => {
    const s = exportPoolStats();
    const busy = (await exportBackends()).filter((b) => b.state !== "idle");
    return s.total === s.idle && s.waiting === 0 && busy.length === 0;
  };

  it("streams with backpressure: an unread download holds the COPY waiting on the client, not the whole file in memory", async () => {
    const res = await get(big.token, big.studyId, "dataset=grades");
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.value!.byteLength).toBeGreaterThan(0);
    expect(await until(async () => (await exportBackends()).some((b) => b.state === "active" && b.wait_event === "ClientWrite"), 5_000)).toBe(true);
    await reader.cancel();
    expect(await until(settled)).toBe(true);
  });

  it("cancelling after the first chunk releases the connection and leaves the server healthy", async () => {
    for (const query of ["dataset=grades", "dataset=grades&format=json", "dataset=study", "dataset=audit"]) {
      const res = await get(big.token, big.studyId, query);
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      await reader.read();
      await reader.cancel();
      expect(await until(settled), query).toBe(true);
    }
    // the next export works and is complete; the database answers
    expect(csv(await text(big.token, big.studyId, "dataset=grades")).rows).toHaveLength(big.grades);
    expect(await getDb().$queryRaw`SELECT 1 AS ok`).toEqual([{ ok: 1 }]);
  });

  it("an aborted request (the client went away) releases the connection even if nobody cancels the body", async () => {
    const ac = new AbortController();
    const res = await get(big.token, big.studyId, "dataset=grades", { signal: ac.signal });
    const reader = res.body!.getReader();
    await reader.read();
    ac.abort();
    expect(await until(settled)).toBe(true);
    await expect(reader.read()).rejects.toThrow();
    // The next export works (read to the end: an export holds its connection until its body is read or cancelled).
    const after = await get(big.token, big.studyId, "dataset=score-long");
    expect(after.status).toBe(200);
    expect(csv(await after.text()).header).toEqual([...SCORE_LONG_HEADER]);
  });

  it("JSON from COPY is one valid array of every score", async () => {
    const rows = JSON.parse(await text(big.token, big.studyId, "dataset=grades&format=json")) as unknown[];
    expect(rows).toHaveLength(big.grades);
  });
});
