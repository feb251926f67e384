import { afterEach, describe, expect, it } from "vitest";
import { GET as getAssignment } from "@/app/api/v1/assignments/[id]/route";
import { GET as me } from "@/app/api/v1/me/route";
import { GET as myAssignments } from "@/app/api/v1/me/assignments/route";
import { POST as assign } from "@/app/api/v1/studies/[id]/assignments/route";
import { GET as exportStudy } from "@/app/api/v1/studies/[id]/export/route";
import { GET as getScreening, POST as runScreen } from "@/app/api/v1/studies/[id]/screening/route";
import { getDb } from "@/lib/db/client";
import { bearer, call } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makeGradableStudy, MODEL_NAMES } from "./helpers/study-fixture";

useIsolatedDatabase();

// Response bodies are read field by field below.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

afterEach(() => {
  delete process.env.SCREEN_REGEX_BUDGET_MS;
});

const RULES = [
  { name: "Anticoagulant named", kind: "term", pattern: "warfarin", reason: "check dosing advice" },
  { name: "Gram-scale dose", kind: "regex", pattern: "\\b\\d{4,}\\s*mg\\b" },
  { name: `Mentions ${MODEL_NAMES[0]}`, kind: "term", pattern: "self-identifies" },
];

/** Two items x two models x N = 2; answers of the first set and of the last set carry screenable text. */
async function seed() {
  const s = await makeGradableStudy({ items: 2, models: 2, n: 2, k: 1, graders: 2 });
  const db = getDb();
  const text = async (set: number, rep: number, t: string) =>
    db.response.update({ where: { responseSetId_repetition: { responseSetId: s.sets[set].id, repetition: rep } }, data: { text: t } });
  await text(0, 1, "Start WARFARIN 5 mg tonight.\nThen warfarin again, checking the INR.");
  await text(1, 1, "Patients who are warfarinised, or on prewarfarin protocols, need monitoring."); // not the whole word
  await text(3, 2, "Give 1500 mg of paracetamol at once.");
  return s;
}

function post(studyId: string, token: string, body: unknown) {
  return call(runScreen, `/api/v1/studies/${studyId}/screening`, bearer(token, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } }), {
    id: studyId,
  }) as Promise<{ status: number; body: Body }>;
}

describe("safety screening", () => {
  it("marks terms (whole word, any case) and regex hits with the rule's name and an excerpt, stores and audits the run", async () => {
    const s = await seed();
    const r = await post(s.study.id, s.lead.token, { rules: RULES, action: "warn" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.run).toMatchObject({ action: "warn", answers: 8, screenedAnswers: 2, screenedSets: 2, assignedSets: 0, ranBy: { id: s.lead.id } });
    expect(r.body.answers).toHaveLength(2);
    const [first, last] = r.body.answers;
    expect(first).toMatchObject({ responseSetId: s.sets[0].id, externalId: "Q1", model: MODEL_NAMES[0], repetition: 1 });
    expect(first.hits).toEqual([
      { source: "rule", rule: 0, name: "Anticoagulant named", matches: 2, excerpt: "Start [WARFARIN] 5 mg tonight. Then warfarin again, checking the INR.", reason: null },
    ]);
    expect(last).toMatchObject({ responseSetId: s.sets[3].id, repetition: 2 });
    expect(last.hits).toEqual([{ source: "rule", rule: 1, name: "Gram-scale dose", matches: 1, excerpt: "Give [1500 mg] of paracetamol at once.", reason: null }]);

    const got = await call(getScreening, "/x", bearer(s.lead.token), { id: s.study.id });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(r.body);
    const hits = await getDb().screenHit.count({ where: { runId: r.body.run.id } });
    expect(hits).toBe(2);
    const audit = await getDb().auditEvent.findMany({ where: { studyId: s.study.id, action: "screen.run" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: s.lead.id, entityType: "ScreenRun", entityId: r.body.run.id });
    // The dataset: one row per answer x rule, the rule as run.
    const csv = await call(exportStudy, `/api/v1/studies/${s.study.id}/export?dataset=screening&format=csv`, bearer(s.lead.token), { id: s.study.id });
    expect(csv.status).toBe(200);
    const lines = String(csv.body).trim().split(/\r?\n/);
    expect(lines[0]).toBe("run_id,ran_at,action,item_id,model,model_version,repetition,rule,rule_kind,rule_pattern,matches,excerpt,judge_verdict,judge_reason");
    expect(lines.slice(1).map((l) => l.replace(/^[^,]+,[^,]+,/, ""))).toEqual([
      `warn,Q1,${MODEL_NAMES[0]},zma-2031-01-17,1,Anticoagulant named,term,warfarin,2,"Start [WARFARIN] 5 mg tonight. Then warfarin again, checking the INR.",,`,
      `warn,Q2,${MODEL_NAMES[1]},olb-v9.4.2,2,Gram-scale dose,regex,"\\b\\d{4,}\\s*mg\\b",1,Give [1500 mg] of paracetamol at once.,,`,
    ]);
    expect(audit[0].after).toMatchObject({ action: "warn", screenedAnswers: 2, hits: 2, rules: [{ name: "Anticoagulant named" }, { name: "Gram-scale dose" }, { name: RULES[2].name }] });
  });

  it("stores and audits nothing on a dry run, and refuses bad rules with a 422 naming them", async () => {
    const s = await seed();
    const dry = await post(s.study.id, s.lead.token, { rules: RULES, action: "exclude", dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, run: { id: null, screenedAnswers: 2 } });
    expect(await getDb().screenRun.count({ where: { studyId: s.study.id } })).toBe(0);
    expect(await getDb().auditEvent.count({ where: { studyId: s.study.id, action: "screen.run" } })).toBe(0);
    expect((await call(getScreening, "/x", bearer(s.lead.token), { id: s.study.id })).body).toEqual({ dryRun: false, run: null, answers: [], unscreened: [], inProgress: null });

    for (const [rule, problem] of [
      [{ name: "Lookahead", kind: "regex", pattern: "dose(?=mg)" }, /"Lookahead": not a valid regular expression/],
      [{ name: "Everything", kind: "regex", pattern: "x*" }, /"Everything": the regular expression matches empty text/],
      [{ name: "Huge", kind: "regex", pattern: "(\\w+\\s){1,900}" }, /"Huge": the regular expression compiles to more than/],
    ] as const) {
      const bad = await post(s.study.id, s.lead.token, { rules: [rule], action: "warn" });
      expect(bad.status).toBe(422);
      expect(bad.body.details).toEqual([{ path: "rules.0.pattern", message: expect.stringMatching(problem) }]);
    }
  });

  it("is the lead's: a grader gets 403 on both endpoints", async () => {
    const s = await seed();
    expect((await post(s.study.id, s.graders[0].token, { rules: RULES, action: "warn" })).status).toBe(403);
    expect((await call(getScreening, "/x", bearer(s.graders[0].token), { id: s.study.id })).status).toBe(403);
    expect(await getDb().screenRun.count({ where: { studyId: s.study.id } })).toBe(0);
  });

  it("exclude mode keeps the screened sets out of assignment; a later warn run lets them in", async () => {
    const s = await seed();
    expect((await post(s.study.id, s.lead.token, { rules: RULES, action: "exclude" })).status).toBe(200);
    const assignBody = { method: "POST", body: JSON.stringify({ seed: "s1" }), headers: { "content-type": "application/json" } };
    const a = await call(assign, "/x", bearer(s.lead.token, assignBody), { id: s.study.id });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const assigned = new Set((await getDb().assignment.findMany({ where: { studyId: s.study.id } })).map((x) => x.responseSetId));
    expect([...assigned].sort()).toEqual([s.sets[1].id, s.sets[2].id].sort());

    expect((await post(s.study.id, s.lead.token, { rules: RULES, action: "warn" })).status).toBe(200);
    await call(assign, "/x", bearer(s.lead.token, { ...assignBody, body: JSON.stringify({ seed: "s2" }) }), { id: s.study.id });
    expect(await getDb().assignment.count({ where: { studyId: s.study.id } })).toBe(4);
  });

  it("warn mode shows graders that an answer was screened, never the rule", async () => {
    const s = await seed();
    expect((await post(s.study.id, s.lead.token, { rules: RULES, action: "warn" })).status).toBe(200);
    await call(assign, "/x", bearer(s.lead.token, { method: "POST", body: "{}", headers: { "content-type": "application/json" } }), { id: s.study.id });
    const seen = new Map<string, boolean[]>();
    for (const g of s.graders) {
      const q = await call(myAssignments, "/x", bearer(g.token));
      for (const a of q.body.assignments as Body[]) {
        const view = await call(getAssignment, "/x", bearer(g.token), { id: a.id });
        expect(view.status).toBe(200);
        const text = JSON.stringify(view.body);
        for (const leak of [...RULES.map((r) => r.name), ...MODEL_NAMES, "Gram-scale", "Anticoagulant"]) expect(text).not.toMatch(new RegExp(leak));
        const set = await getDb().assignment.findUniqueOrThrow({ where: { id: a.id } });
        seen.set(set.responseSetId, (view.body as Body).answers.map((x: Body) => x.screened));
      }
    }
    expect(seen.get(s.sets[0].id)).toEqual([true, false]);
    expect(seen.get(s.sets[1].id)).toEqual([false, false]);
    expect(seen.get(s.sets[3].id)).toEqual([false, true]);
  });
});

describe("a slow screening rule", () => {
  const SLOW = { name: "Slow sentence rule", kind: "regex", pattern: "(\\w+\\s+){5,40}\\w+\\s+$" };
  const LONG = "lorem ipsum dolor sit amet consectetur ".repeat(2500); // about 100 KB: ~0.3 s per match here

  async function probe<T>(token: string, work: () => Promise<T>) {
    const latencies: number[] = [];
    let done = false;
    const loop = (async () => {
      while (!done) {
        // From when the request was due: a blocked event loop delays the timer as much as the request.
        const due = performance.now() + 25;
        await new Promise((resolve) => setTimeout(resolve, 25));
        expect((await call(me, "/api/v1/me", bearer(token))).status).toBe(200);
        latencies.push(performance.now() - due);
      }
    })();
    const t0 = performance.now();
    try {
      return { result: await work(), ms: performance.now() - t0, latencies };
    } finally {
      done = true;
      await loop;
    }
  }

  it("is stopped by its time budget over many answers with a 422 naming it, while others' requests stay fast", async () => {
    process.env.SCREEN_REGEX_BUDGET_MS = "600";
    const s = await makeGradableStudy({ items: 15, models: 2, n: 2, k: 1, graders: 1 });
    // 60 answers of 10 KB: each match is far below the budget (the thread's watchdog never fires), their sum far above it.
    await getDb().response.updateMany({ where: { responseSet: { studyId: s.study.id } }, data: { text: LONG.slice(0, 10_000) } });
    const m = await probe(s.lead.token, () => post(s.study.id, s.lead.token, { rules: [RULES[0], SLOW], action: "warn" }));
    expect(m.result.status, JSON.stringify(m.result.body)).toBe(422);
    expect(m.result.body.error).toMatch(/the screening rule "Slow sentence rule" \(rule 2: .*\) took longer than 600 ms .*SCREEN_REGEX_BUDGET_MS/);
    expect(m.result.body.details).toMatchObject({ errors: [{ path: "rules.1.pattern", rule: "Slow sentence rule" }], limit: "SCREEN_REGEX_BUDGET_MS" });
    expect(m.latencies.length).toBeGreaterThan(3);
    expect(Math.max(...m.latencies)).toBeLessThan(500);
    expect(await getDb().screenRun.count({ where: { studyId: s.study.id } })).toBe(0);
  });

  it("is stopped when one match alone outlasts the budget: the thread is ended, not waited for", async () => {
    process.env.SCREEN_REGEX_BUDGET_MS = "400";
    const s = await makeGradableStudy({ items: 1, models: 1, n: 1, k: 1, graders: 1 });
    // One answer of ~3 MB: a single match of the rule takes about 10 s here.
    await getDb().response.updateMany({ where: { responseSet: { studyId: s.study.id } }, data: { text: LONG.repeat(30) } });
    const m = await probe(s.lead.token, () => post(s.study.id, s.lead.token, { rules: [SLOW], action: "exclude" }));
    expect(m.result.status, JSON.stringify(m.result.body)).toBe(422);
    expect(m.result.body.error).toMatch(/the screening rule "Slow sentence rule" \(rule 1/);
    // The worker's start (tsx in a checkout), the read of the answer, then the budget: far less than the match itself.
    expect(m.ms).toBeLessThan(5000);
    expect(Math.max(...m.latencies)).toBeLessThan(500);
  });
});
