import { describe, expect, it } from "vitest";
import { GET as getAssignment } from "@/app/api/v1/assignments/[id]/route";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { POST as assign } from "@/app/api/v1/studies/[id]/assignments/route";
import { GET as getTriage } from "@/app/api/v1/studies/[id]/triage/route";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { PATCH as patchStudy } from "@/app/api/v1/studies/[id]/route";
import { getDb } from "@/lib/db/client";
import type { RubricDocument } from "@/lib/rubrics/document";
import { bearer, call as callRoute } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
const call = async <P,>(handler: (req: Request, ctx: { params: Promise<P> }) => Promise<Response>, url: string, init?: RequestInit, params?: P) =>
  (await callRoute(handler, url, init, params)) as { status: number; body: Body };
const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

/** A study's own instrument (not a template): accuracy on each answer (N/A allowed), a nominal judgment of the set, no total. */
const PANEL: RubricDocument = {
  key: "panel",
  name: "Panel",
  version: 1,
  dimensions: [
    { key: "accuracy", name: "Accuracy", scope: "each_answer", scale: { kind: "ordinal", allowNA: true, levels: [1, 2, 3].map((value) => ({ value, label: `L${value}` })) }, escalation: { rule: "never" } },
    { key: "advice", name: "Kind of advice", scope: "set", scale: { kind: "nominal", levels: [{ value: "self_care", label: "Self-care" }, { value: "see_doctor", label: "See a doctor" }] }, escalation: { rule: "never" } },
  ],
  totals: [],
};

/** One answer per question: nothing is graded across answers. */
const PANEL_ONE: RubricDocument = { ...PANEL, dimensions: PANEL.dimensions.map((d) => ({ ...d, scope: d.scale.kind === "nominal" ? ("first_answer" as const) : d.scope })) };
const ONE_ANSWER = [
  { rubric: "panel", dimension: "accuracy", repetition: 1, score: 2 },
  { rubric: "panel", dimension: "advice", repetition: 1, score: "see_doctor" },
];

const scores = (n: number) => [
  ...Array.from({ length: n }, (_, i) => ({ rubric: "panel", dimension: "accuracy", repetition: i + 1, score: i === 0 ? null : 3, ...(i === 0 ? { na: true } : {}) })),
  { rubric: "panel", dimension: "advice", repetition: null, score: "self_care" },
];

async function assigned(opts: { items?: number; n?: number; graders?: number } = {}) {
  const f = await makeGradableStudy({ rubrics: [opts.n === 1 ? PANEL_ONE : PANEL], items: opts.items ?? 1, models: 1, n: opts.n ?? 3, graders: opts.graders ?? 2 });
  const r = await call(assign, `/api/v1/studies/${f.study.id}/assignments`, json(f.lead.token, "POST", { seed: "contradiction" }), { id: f.study.id });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const assignments = await getDb().assignment.findMany({ where: { studyId: f.study.id }, orderBy: { graderId: "asc" } });
  const tokenOf = (graderId: string) => f.graders.find((g) => g.id === graderId)!.token;
  return { f, assignments: assignments.map((a) => ({ ...a, token: tokenOf(a.graderId) })) };
}

const put = (a: { id: string; token: string }, body: unknown) => call(putGrades, `/api/v1/assignments/${a.id}/grades`, json(a.token, "PUT", body), { id: a.id });
const read = (a: { id: string; token: string }) => call(getAssignment, `/api/v1/assignments/${a.id}`, bearer(a.token), { id: a.id });

describe("contradiction flags raised by graders (stability sweep)", () => {
  it("stores the flag with the grade, shows it only to its grader, revises it while the study is open, and audits it", async () => {
    const { f, assignments } = await assigned();
    const setId = f.sets[0].id;
    const [a, b] = assignments.filter((x) => x.responseSetId === setId);
    const note = "Answer 2 says stop the drug; answers 1 and 3 say continue";
    // A draft may hold the flag; the submission stores it with the scores.
    expect((await put(a, { scores: scores(3).slice(0, 1), contradiction: { flag: true, note }, submit: false })).status).toBe(200);
    expect((await read(a)).body.contradiction).toEqual({ flag: true, note });
    const sa = await put(a, { scores: scores(3), contradiction: { flag: true, note: `  ${note}  ` }, submit: true });
    expect(sa.status, JSON.stringify(sa.body)).toBe(200);
    const sb = await put(b, { scores: scores(3), contradiction: { flag: false }, submit: true });
    expect(sb.status, JSON.stringify(sb.body)).toBe(200);
    expect(await getDb().assignment.findUniqueOrThrow({ where: { id: a.id }, select: { contradictionFlag: true, contradictionNote: true } })).toEqual({ contradictionFlag: true, contradictionNote: note });

    // Blind: each grader reads their own flag, never the other's (nor its note anywhere in the body).
    const ra = await read(a);
    const rb = await read(b);
    expect(ra.body.contradiction).toEqual({ flag: true, note });
    expect(ra.body.study.askContradictions).toBe(true);
    expect(rb.body.contradiction).toEqual({ flag: false, note: null });
    expect(JSON.stringify(rb.body)).not.toContain("stop the drug");
    // A body without the flag leaves it as saved; a revision changes it, audited with before and after.
    expect((await put(a, { scores: scores(3), submit: true })).body.changed).toBe(0);
    expect((await read(a)).body.contradiction.flag).toBe(true);
    const revised = await put(a, { scores: scores(3), contradiction: { flag: false, note: "ignored without the flag" }, submit: true });
    expect(revised.body.changed).toBe(1);
    expect((await read(a)).body.contradiction).toEqual({ flag: false, note: null });
    const audit = await getDb().auditEvent.findMany({ where: { entityId: a.id, action: { in: ["assignment.submit", "grade.revise"] } }, orderBy: { id: "asc" } });
    expect(audit.map((e) => [e.action, (e.before as Body)?.contradiction ?? null, (e.after as Body).contradiction])).toEqual([
      ["assignment.submit", null, { flag: true, note }],
      ["grade.revise", { flag: true, note }, { flag: false, note: null }],
    ]);

    // A closed study's grades are final: the flag with them.
    await getDb().study.update({ where: { id: f.study.id }, data: { status: "CLOSED" } });
    expect((await put(a, { scores: scores(3), contradiction: { flag: true }, submit: true })).status).toBe(409);
    expect((await read(a)).body.contradiction.flag).toBe(false);
  });

  it("refuses a flag where nothing can contradict (one answer) or the study does not ask, and a note that is too long", async () => {
    const one = await assigned({ n: 1 });
    const a1 = one.assignments[0];
    const r1 = await put(a1, { scores: ONE_ANSWER, contradiction: { flag: true }, submit: true });
    expect(r1.status).toBe(422);
    expect(JSON.stringify(r1.body)).toMatch(/a set with one answer has nothing to contradict/);
    expect((await read(a1)).body.study.askContradictions).toBe(false);
    // Saying "no contradiction" is harmless anywhere.
    expect((await put(a1, { scores: ONE_ANSWER, contradiction: { flag: false }, submit: true })).status).toBe(200);

    const { f, assignments } = await assigned();
    const off = await call(patchStudy, `/api/v1/studies/${f.study.id}`, json(f.lead.token, "PATCH", { askContradictions: false }), { id: f.study.id });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const a = assignments[0];
    expect((await read(a)).body.study.askContradictions).toBe(false);
    const r = await put(a, { scores: scores(3), contradiction: { flag: true }, submit: true });
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body)).toMatch(/does not ask graders about contradictions/);
    await call(patchStudy, `/api/v1/studies/${f.study.id}`, json(f.lead.token, "PATCH", { askContradictions: true }), { id: f.study.id });
    const long = await put(a, { scores: scores(3), contradiction: { flag: true, note: "x".repeat(501) }, submit: true });
    expect(long.status).toBe(422);
    expect(JSON.stringify(long.body)).toMatch(/contradiction\.note/);
    expect(await getDb().assignment.findUniqueOrThrow({ where: { id: a.id }, select: { contradictionFlag: true, status: true } })).toEqual({ contradictionFlag: false, status: "PENDING" });
    const settingAudit = await getDb().auditEvent.findMany({ where: { studyId: f.study.id, action: "study.update" }, orderBy: { id: "asc" } });
    expect(settingAudit.map((e) => e.after)).toEqual([{ askContradictions: false }, { askContradictions: true }]);
  });

  it("two graders revising their flags at once, round after round, lose nothing", async () => {
    const { f, assignments } = await assigned();
    const setId = f.sets[0].id;
    const [a, b] = assignments.filter((x) => x.responseSetId === setId);
    for (const x of [a, b]) expect((await put(x, { scores: scores(3), submit: true })).status).toBe(200);
    const rounds = 16;
    for (let round = 0; round < rounds; round++) {
      const flagA = round % 2 === 0;
      const flagB = round % 3 === 0;
      // Each grader's revision with its flag, and beside it a revision without the flag (a double save from another tab):
      // decided under the set's lock, the latter keeps whatever flag is stored when it runs.
      const results = await Promise.all([
        put(a, { scores: scores(3), contradiction: { flag: flagA, note: `A round ${round}` }, submit: true }),
        put(b, { scores: scores(3), contradiction: { flag: flagB, note: `B round ${round}` }, submit: true }),
        put(a, { scores: scores(3), submit: true }),
        put(b, { scores: scores(3), submit: true }),
      ]);
      results.forEach((r) => expect(r.status, JSON.stringify(r.body)).toBe(200));
      const stored = await getDb().assignment.findMany({ where: { id: { in: [a.id, b.id] } }, select: { id: true, contradictionFlag: true, contradictionNote: true } });
      const byId = Object.fromEntries(stored.map((s) => [s.id, [s.contradictionFlag, s.contradictionNote]]));
      expect(byId[a.id], `round ${round}`).toEqual([flagA, flagA ? `A round ${round}` : null]);
      expect(byId[b.id], `round ${round}`).toEqual([flagB, flagB ? `B round ${round}` : null]);
      const triage = await call(getTriage, `/api/v1/studies/${f.study.id}/triage`, bearer(f.lead.token), { id: f.study.id });
      expect(triage.body.sets[0].contradictions, `round ${round}`).toBe(Number(flagA) + Number(flagB));
    }
    // Every change of a flag is in the audit log: none was overwritten unseen.
    const revisions = await getDb().auditEvent.findMany({ where: { entityId: { in: [a.id, b.id] }, action: "grade.revise" } });
    // A round revises a grader's work when it flags (each note is new) or takes back the previous round's flag.
    const changesOf = (flags: boolean[]) => flags.filter((x, i) => x || (i > 0 && flags[i - 1])).length;
    const flagsA = Array.from({ length: rounds }, (_, r) => r % 2 === 0);
    const flagsB = Array.from({ length: rounds }, (_, r) => r % 3 === 0);
    expect(revisions.filter((e) => e.entityId === a.id)).toHaveLength(changesOf(flagsA));
    expect(revisions.filter((e) => e.entityId === b.id)).toHaveLength(changesOf(flagsB));
  });

  it("exports each submission's flag in grades, the count per set in score-long", async () => {
    const { f, assignments } = await assigned();
    const setId = f.sets[0].id;
    const [a, b] = assignments.filter((x) => x.responseSetId === setId);
    await put(a, { scores: scores(3), contradiction: { flag: true, note: "=HYPERLINK(\"x\")" }, submit: true });
    await put(b, { scores: scores(3), submit: true });
    const grades = await callRoute(exportRoute, `/api/v1/studies/${f.study.id}/export?dataset=grades&format=json`, bearer(f.lead.token), { id: f.study.id });
    const rows = (typeof grades.body === "string" ? JSON.parse(grades.body) : grades.body) as Body[];
    const flagged = rows.filter((r) => r.contradiction === true);
    expect(flagged.length).toBe(4); // every score row of the flagging grader's submission
    expect(new Set(flagged.map((r) => r.contradiction_note))).toEqual(new Set(['=HYPERLINK("x")']));
    expect(rows.filter((r) => r.contradiction === false)).toHaveLength(4);
    const csv = await callRoute(exportRoute, `/api/v1/studies/${f.study.id}/export?dataset=grades&format=csv`, bearer(f.lead.token), { id: f.study.id });
    const lines = String(csv.body).replace(/^\uFEFF/, "").trim().split(/\r?\n/);
    expect(lines[0]).toContain(",harm_flag,harm_comment,contradiction,contradiction_note,");
    // A note that reads like a formula is neutralised in the CSV.
    expect(lines.filter((l) => l.includes(`,true,"'=HYPERLINK(""x"")",`))).toHaveLength(4);

    const long = await callRoute(exportRoute, `/api/v1/studies/${f.study.id}/export?dataset=score-long&format=csv`, bearer(f.lead.token), { id: f.study.id });
    const longLines = String(long.body).replace(/^\uFEFF/, "").trim().split(/\r?\n/);
    expect(longLines[0].split(",").at(-1)).toBe("contradiction");
    expect(longLines[1].split(",").at(-1)).toBe("1");
  });
});
