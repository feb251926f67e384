import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as getAssignment } from "@/app/api/v1/assignments/[id]/route";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { GET as myAssignments } from "@/app/api/v1/me/assignments/route";
import { POST as assign } from "@/app/api/v1/studies/[id]/assignments/route";
import { GET as exportStudy } from "@/app/api/v1/studies/[id]/export/route";
import { GET as getScreening, POST as runScreen } from "@/app/api/v1/studies/[id]/screening/route";
import { getDb } from "@/lib/db/client";
import { DEFAULT_SCREEN_PROMPT, REPLY_FORMAT } from "@/lib/screening/judge-prompt";
import { claimScreenRun, driveScreenRun, screenJudgeOptions } from "@/lib/screening/judge-run";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { PLAIN, PLAIN_FORM } from "./helpers/screen-fixture";
import { startJudgeStub, type ChatBody, type JudgeStub, type StubOptions } from "./helpers/judge-stub";
import { makeGradableStudy, MODEL_NAMES, MODEL_VERSIONS } from "./helpers/study-fixture";

/**
 * The safety screen's automated judge against a local OpenAI-compatible stub,
 * on a study with an instrument of its own (a nominal item, an item that may
 * not apply, no total) and one answer per question.
 */
useIsolatedDatabase();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

const stubs: JudgeStub[] = [];
const saved = { ...screenJudgeOptions };
beforeEach(() => Object.assign(screenJudgeOptions, { backoffMs: 10, leaseMs: 5000 }));
afterEach(async () => {
  // The runs started by the requests finish before the stubs go (a verdict per answer, or the test waits for them).
  Object.assign(screenJudgeOptions, saved);
  await Promise.all(stubs.splice(0).map((s) => s.close()));
});
async function stub(opts: StubOptions) {
  const s = await startJudgeStub(opts);
  stubs.push(s);
  return s;
}

const answerIn = (body: ChatBody) => /\nAnswer:\n([\s\S]*)$/.exec(body.messages.find((m) => m.role === "user")!.content)?.[1] ?? "";

/** What the stub answers, by the answer it reads. */
function screenStub(opts: Partial<StubOptions> = {}) {
  return stub({
    logprobs: false,
    fail: (_n, body) => (answerIn(body).startsWith("DOWN") ? 503 : null),
    content: (_n, _dims, body) => {
      const a = answerIn(body);
      if (a.startsWith("UNSAFE")) return '```json\n{"unsafe": true, "reason": "It doubles the anticoagulant dose without monitoring."}\n```';
      if (a.startsWith("PROSE")) return 'Sure! Here is my verdict: {"unsafe": false, "reason": "fine"}';
      if (a.startsWith("YES")) return '{"unsafe": "yes", "reason": "looks risky"}';
      return '{"unsafe": false, "reason": "No unsafe advice."}';
    },
    ...opts,
  });
}

async function seed(texts: string[], opts: { items?: number; models?: number } = {}) {
  const s = await makeGradableStudy({ rubrics: [PLAIN], items: opts.items ?? 3, models: opts.models ?? 2, n: 1, graders: 2 });
  const db = getDb();
  for (const [i, t] of texts.entries()) {
    await db.response.update({ where: { responseSetId_repetition: { responseSetId: s.sets[i].id, repetition: 1 } }, data: { text: t } });
  }
  return s;
}

async function endpoint(url: string, extra: { concurrency?: number; timeoutMs?: number } = {}) {
  const admin = await makeUser("ADMIN", `admin-${Math.random().toString(36).slice(2, 7)}`);
  return getDb().judgeEndpoint.create({
    data: { name: `screen-stub-${Math.random().toString(36).slice(2, 8)}`, baseUrl: url, model: "stub-screen-1", logprobs: false, concurrency: extra.concurrency ?? 4, timeoutMs: extra.timeoutMs ?? 5000, createdById: admin.id },
  });
}

function post(studyId: string, token: string, body: unknown) {
  return call(runScreen, `/api/v1/studies/${studyId}/screening`, bearer(token, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } }), {
    id: studyId,
  }) as Promise<{ status: number; body: Body }>;
}

/** Polls the screen until no run is in progress. */
async function settled(studyId: string, token: string): Promise<Body> {
  for (let i = 0; i < 400; i++) {
    const r = await call(getScreening, "/x", bearer(token), { id: studyId });
    expect(r.status).toBe(200);
    if (!r.body.inProgress) {
      if (!r.body.run) throw new Error(`no finished run: ${JSON.stringify(await getDb().screenRun.findMany({ where: { studyId }, select: { status: true, error: true } }))}`);
      return r.body;
    }
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error("the screen never finished");
}

const assignAll = (token: string, studyId: string) =>
  call(assign, "/x", bearer(token, { method: "POST", body: JSON.stringify({ seed: "screen" }), headers: { "content-type": "application/json" } }), { id: studyId });

describe("the screen's automated judge", () => {
  it("asks about each answer with its question, never its model; a flag is a hit with the judge's reason; unreadable replies and a failing endpoint are 'could not screen'", async () => {
    const s = await seed(["UNSAFE: double the warfarin dose.", "PROSE answer.", "YES answer.", "DOWN answer."]);
    const st = await screenStub();
    const e = await endpoint(st.url);
    const started = await post(s.study.id, s.lead.token, { judge: { endpointId: e.id }, action: "warn" });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.run).toBeNull();
    expect(started.body.inProgress).toMatchObject({ judge: { endpointId: e.id, endpoint: e.name, model: "stub-screen-1", prompt: DEFAULT_SCREEN_PROMPT }, answers: 6, ranBy: { id: s.lead.id } });

    const done = await settled(s.study.id, s.lead.token);
    expect(done.run).toMatchObject({ action: "warn", answers: 6, judgedAnswers: 6, screenedAnswers: 1, unscreenedAnswers: 3, withdrawnAssignments: 0, keptGradedAssignments: 0 });
    expect(done.answers).toEqual([
      {
        responseId: expect.any(String),
        responseSetId: s.sets[0].id,
        externalId: "Q1",
        model: MODEL_NAMES[0],
        repetition: 1,
        hits: [{ source: "judge", rule: null, name: "Automated judge", matches: null, excerpt: null, reason: "It doubles the anticoagulant dose without monitoring." }],
      },
    ]);
    const errors = Object.fromEntries(done.unscreened.map((u: Body) => [u.responseSetId, u.error]));
    expect(Object.keys(errors).sort()).toEqual([s.sets[1].id, s.sets[2].id, s.sets[3].id].sort());
    expect(errors[s.sets[1].id]).toMatch(/^could not screen: the reply is not one JSON object: "Sure! Here is my verdict/);
    expect(errors[s.sets[2].id]).toMatch(/^could not screen: "unsafe" is not true or false: "\\"yes\\""/);
    expect(errors[s.sets[3].id]).toMatch(/^could not screen: HTTP 503: .*\(3 attempts\)$/);

    // Six answers, the failing one asked three times; no model identity reaches the endpoint.
    expect(st.bodies).toHaveLength(8);
    const sent = JSON.stringify(st.bodies);
    for (const secret of [...MODEL_NAMES, ...MODEL_VERSIONS]) expect(sent).not.toContain(secret);
    expect(st.bodies.every((b) => b.temperature === 0 && b.model === "stub-screen-1")).toBe(true);
    expect(st.bodies[0].messages[0].content).toBe(`${DEFAULT_SCREEN_PROMPT}\n\n${REPLY_FORMAT}`);
    expect(st.bodies.map((b) => b.messages[1].content)).toContain("Question:\nClinical question 1?\n\nAnswer:\nUNSAFE: double the warfarin dose.");

    // Audited: the start (rules, judge) and the outcome.
    const audit = await getDb().auditEvent.findMany({ where: { studyId: s.study.id, action: { startsWith: "screen." } }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["screen.start", "screen.run"]);
    expect(audit[0].after).toMatchObject({ judge: { endpoint: e.name, prompt: DEFAULT_SCREEN_PROMPT }, rules: [] });
    expect(audit[1]).toMatchObject({ actorId: s.lead.id, entityId: done.run.id });
    expect(audit[1].after).toMatchObject({ verdicts: { flagged: 1, clear: 2, couldNotScreen: 3 }, withdrawnAssignments: [], keptGradedAssignments: 0 });

    // The dataset: the flag and each answer that could not be screened.
    const csv = await call(exportStudy, `/x?dataset=screening&format=csv`, bearer(s.lead.token), { id: s.study.id });
    const lines = String(csv.body).trim().split(/\r?\n/).slice(1);
    expect(lines).toHaveLength(4);
    expect(lines.find((l) => l.includes(",flagged,"))).toContain(`,Q1,${MODEL_NAMES[0]},zma-2031-01-17,1,Automated judge (${e.name}),judge,,,,flagged,It doubles the anticoagulant dose without monitoring.`);
    expect(lines.filter((l) => l.includes(",could_not_screen,"))).toHaveLength(3);

    // Warn mode: the grader holding the flagged answer sees the neutral warning, nothing of the judge.
    expect((await assignAll(s.lead.token, s.study.id)).status).toBe(200);
    const a = await getDb().assignment.findFirstOrThrow({ where: { responseSetId: s.sets[0].id } });
    const grader = s.graders.find((g) => g.id === a.graderId)!;
    const view = await call(getAssignment, "/x", bearer(grader.token), { id: a.id });
    expect((view.body as Body).answers.map((x: Body) => x.screened)).toEqual([true]);
    expect(JSON.stringify(view.body)).not.toMatch(/anticoagulant dose|Automated judge|stub-screen|screen-stub/);
  });

  it("refuses what it cannot run: an unknown endpoint, a judge in a dry run, no rule and no judge, a second screen while one runs; a grader gets 403", async () => {
    const s = await seed(["UNSAFE one."], { items: 2, models: 1 });
    // Slow enough that the second request surely comes while the first run works, even on a loaded machine.
    const st = await screenStub({ delayMs: () => 3000 });
    const e = await endpoint(st.url);
    const bad = async (body: unknown, status: number, detail: RegExp) => {
      const r = await post(s.study.id, s.lead.token, body);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(JSON.stringify(r.body)).toMatch(detail);
    };
    await bad({ judge: { endpointId: "00000000-0000-4000-8000-000000000009" }, action: "warn" }, 422, /judge.endpointId.*no such endpoint/);
    await bad({ judge: { endpointId: e.id }, action: "warn", dryRun: true }, 422, /a dry run checks the rules only/);
    await bad({ action: "warn" }, 422, /give at least one rule or an automated judge/);
    await bad({ judge: { endpointId: e.id, prompt: "x".repeat(8001) }, action: "warn" }, 422, /judge.prompt/);
    await bad({ judge: { endpointId: e.id, baseUrl: "http://169.254.169.254/" }, action: "warn" }, 422, /baseUrl/);
    expect((await post(s.study.id, s.graders[0].token, { judge: { endpointId: e.id }, action: "warn" })).status).toBe(403);
    expect(await getDb().screenRun.findMany({ where: { studyId: s.study.id } })).toEqual([]);

    const started = await post(s.study.id, s.lead.token, { judge: { endpointId: e.id, prompt: "Flag answers that recommend stopping a medicine." }, action: "exclude" });
    expect(started.status).toBe(200);
    await bad({ rules: [{ name: "Any", kind: "term", pattern: "one" }], action: "warn" }, 409, /still running/);
    const done = await settled(s.study.id, s.lead.token);
    expect(done.run).toMatchObject({ action: "exclude", judge: { prompt: "Flag answers that recommend stopping a medicine." }, screenedAnswers: 1 });
    expect(st.bodies[0].messages[0].content).toBe(`Flag answers that recommend stopping a medicine.\n\n${REPLY_FORMAT}`);
    // Now the lead may run again.
    expect((await post(s.study.id, s.lead.token, { rules: [{ name: "Any", kind: "term", pattern: "one" }], action: "warn" })).status).toBe(200);
  });

  it("a run whose worker stopped is taken over after its lease, asking only about answers without a verdict", async () => {
    const s = await seed(["UNSAFE one."], { items: 3, models: 1 });
    const st = await screenStub();
    const e = await endpoint(st.url);
    const db = getDb();
    // A run as a dead worker left it: leased (expired), one verdict stored.
    const run = await db.screenRun.create({
      data: { studyId: s.study.id, rules: [], action: "WARN", answers: 3, createdById: s.lead.id, status: "RUNNING", judge: { endpointId: e.id, endpoint: e.name, model: e.model, prompt: DEFAULT_SCREEN_PROMPT }, leaseToken: "00000000-0000-4000-8000-00000000000a", leaseExpiresAt: new Date(Date.now() + 60_000) },
    });
    const first = await db.response.findFirstOrThrow({ where: { responseSetId: s.sets[2].id } });
    await db.screenVerdict.create({ data: { runId: run.id, responseId: first.id, flagged: false, reason: "cleared before the worker died" } });
    expect(await claimScreenRun(run.id)).toBeNull(); // its lease still holds
    await db.screenRun.update({ where: { id: run.id }, data: { leaseExpiresAt: new Date(Date.now() - 1) } });
    const claim = (await claimScreenRun(run.id))!;
    expect(claim.id).toBe(run.id);
    expect(await driveScreenRun(claim)).toBe(true);
    expect(st.bodies).toHaveLength(2);
    const done = await settled(s.study.id, s.lead.token);
    expect(done.run).toMatchObject({ id: run.id, judgedAnswers: 3, screenedAnswers: 1 });
    // The old worker's lease is gone: what it would write now is refused.
    expect(await driveScreenRun({ id: run.id, leaseToken: "00000000-0000-4000-8000-00000000000a" })).toBe(false);
  });
});

describe("excluding sets that already have graders", () => {
  it("withdraws ungraded assignments, keeps graded ones and says so; the grader is told on submit and no longer sees the withdrawn work", async () => {
    const s = await seed(["UNSAFE one.", "UNSAFE two."], { items: 3, models: 1 });
    expect((await assignAll(s.lead.token, s.study.id)).status).toBe(200);
    const db = getDb();
    const onSet = (i: number) => db.assignment.findMany({ where: { responseSetId: s.sets[i].id }, orderBy: { graderId: "asc" } });
    const tokenOf = (graderId: string) => s.graders.find((g) => g.id === graderId)!.token;
    const put = (a: { id: string; graderId: string }, submit: boolean) =>
      call(putGrades, "/x", bearer(tokenOf(a.graderId), { method: "PUT", body: JSON.stringify({ scores: PLAIN_FORM, submit }) }), { id: a.id });
    // Set 1: one grader submitted, the other has a draft. Set 2: nobody started.
    const [g1, g2] = await onSet(0);
    expect((await put(g1, true)).status).toBe(200);
    expect((await put(g2, false)).status).toBe(200);
    const untouched = await onSet(1);

    const st = await screenStub();
    const e = await endpoint(st.url);
    expect((await post(s.study.id, s.lead.token, { judge: { endpointId: e.id }, action: "exclude" })).status).toBe(200);
    const done = await settled(s.study.id, s.lead.token);
    expect(done.run).toMatchObject({ screenedSets: 2, withdrawnAssignments: 3, keptGradedAssignments: 1, assignedSets: 1 });
    expect((await db.assignment.findUniqueOrThrow({ where: { id: g1.id } })).status).toBe("SUBMITTED");
    expect(await db.grade.count({ where: { assignmentId: g1.id } })).toBe(2);
    for (const a of [g2, ...untouched]) expect((await db.assignment.findUniqueOrThrow({ where: { id: a.id } })).status).toBe("CANCELLED");
    // The draft's cells stay stored (a grade is never deleted), on the withdrawn assignment.
    expect(await db.grade.count({ where: { assignmentId: g2.id } })).toBe(2);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { studyId: s.study.id, action: "screen.run" } });
    expect((audit.after as Body).withdrawnAssignments.map((w: Body) => w.id).sort()).toEqual([g2.id, ...untouched.map((u) => u.id)].sort());

    // The grader with the page open: a clear 409, nothing saved.
    const late = await put(g2, true);
    expect(late.status).toBe(409);
    expect(late.body.error).toMatch(/withdrawn: the study's safety screen excluded this answer set/);
    expect((await db.assignment.findUniqueOrThrow({ where: { id: g2.id } })).status).toBe("CANCELLED");
    // Gone from their queue and their view.
    const queue = await call(myAssignments, "/x", bearer(tokenOf(g2.graderId)));
    expect((queue.body as Body).assignments.map((a: Body) => a.id)).not.toContain(g2.id);
    expect((await call(getAssignment, "/x", bearer(tokenOf(g2.graderId)), { id: g2.id })).status).toBe(404);
    // The submitted grader still sees and may not lose their work.
    expect((await call(getAssignment, "/x", bearer(tokenOf(g1.graderId)), { id: g1.id })).status).toBe(200);
    // A new assignment run does not give the excluded sets out again.
    await assignAll(s.lead.token, s.study.id);
    expect(await db.assignment.count({ where: { responseSetId: { in: [s.sets[0].id, s.sets[1].id] }, status: { not: "CANCELLED" } } })).toBe(1);
  });
});
