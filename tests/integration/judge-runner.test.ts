import { afterEach, describe, expect, it } from "vitest";
import { getDb, type Tx } from "@/lib/db/client";
import { cancelRun, claimTasks, resumeRun, settleDone } from "@/lib/judges/runner/jobs";
import { runProgress } from "@/lib/judges/runner/runs";
import { writeRunScores } from "@/lib/judges/runner/write";
import { startJudgeWorker, type JudgeWorker, type WorkerOptions } from "@/lib/judges/runner/worker";
import { useIsolatedDatabase } from "./helpers/db";
import { startJudgeStub, type JudgeStub, type StubOptions } from "./helpers/judge-stub";
import { judgeRunFixture, scoresOf } from "./helpers/judge-run-fixture";
import { MODEL_NAMES, MODEL_VERSIONS } from "./helpers/study-fixture";

useIsolatedDatabase();

const stubs: JudgeStub[] = [];
const workers: JudgeWorker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop(1000)));
  await Promise.all(stubs.splice(0).map((s) => s.close()));
});
async function stub(opts: StubOptions = {}) {
  const s = await startJudgeStub(opts);
  stubs.push(s);
  return s;
}
function worker(runId: string, opts: WorkerOptions = {}) {
  const w = startJudgeWorker({ runId, pollMs: 50, backoffMs: 30, maxBackoffMs: 200, leaseMs: 3000, ...opts });
  workers.push(w);
  return w;
}
// S.C.O.R.E. with 3 answers: one request for the four first-answer dimensions, one for reproducibility (the set).
const REQUESTS_PER_SET = 2;
const SCORES_PER_SET = 5;

describe("judge runs: a background job kept in PostgreSQL", () => {
  it("logprobs: every set scored once with a probability per level, tokens and cost recorded; no model identity reaches the endpoint", async () => {
    const s = await stub();
    const f = await judgeRunFixture(s.url);
    const run = await f.start();
    expect(run.tasks).toBe(f.sets.length);
    await worker(run.id).idle();
    const scores = await scoresOf(f.judge.id);
    expect(scores).toHaveLength(f.sets.length * SCORES_PER_SET);
    for (const sc of scores) {
      const p = sc.probabilities as Record<string, number>;
      expect(Object.values(p).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    }
    const safety = scores.find((x) => x.dimension === "safety")!;
    expect(safety).toMatchObject({ repetition: 1, score: 5, probabilities: { "1": 0, "2": 0, "3": 0 } });
    expect((safety.probabilities as Record<string, number>)["5"]).toBeCloseTo(0.7 / 0.9, 12);
    expect((safety.probabilities as Record<string, number>)["4"]).toBeCloseTo(0.2 / 0.9, 12);
    expect(scores.find((x) => x.dimension === "reproducibility")).toMatchObject({ repetition: 0 });
    const p = (await runProgress(run.id))!;
    expect(p).toMatchObject({ status: "DONE", tasks: { total: f.sets.length, done: f.sets.length, failed: 0 }, requests: f.sets.length * REQUESTS_PER_SET });
    const tasks = await getDb().judgeRunTask.findMany({ where: { runId: run.id } });
    const prompt = tasks.reduce((t, x) => t + x.promptTokens, 0);
    const completion = tasks.reduce((t, x) => t + x.completionTokens, 0);
    expect(prompt).toBeGreaterThan(0);
    expect(p.promptTokens).toBe(prompt);
    expect(p.cost).toBeCloseTo((prompt / 1000) * 0.0025 + (completion / 1000) * 0.01, 6);
    const sent = JSON.stringify(s.bodies);
    for (const secret of [...MODEL_NAMES, ...MODEL_VERSIONS, ...f.models.map((m) => m.id)]) expect(sent).not.toContain(secret);
    expect(sent).toContain("Clinical question 1?");
  });

  it("sampling: n requests per prompt at temperature > 0; the probability is the share of samples", async () => {
    const s = await stub({ logprobs: false, decide: (dims, n) => Object.fromEntries(dims.map((d) => [d.key, { value: d.levels[n % 3 === 0 ? 0 : d.levels.length - 1] }])) });
    const f = await judgeRunFixture(s.url, { items: 1, models: 1, logprobs: false });
    const run = await f.start({ samples: 3, temperature: 0.9 });
    await worker(run.id).idle();
    expect(s.bodies).toHaveLength(REQUESTS_PER_SET * 3);
    expect(s.bodies.every((b) => b.temperature === 0.9 && !b.logprobs)).toBe(true);
    const safety = (await scoresOf(f.judge.id)).find((x) => x.dimension === "safety")!;
    expect(safety).toMatchObject({ score: 5, samples: [1, 5, 5] });
    expect(safety.expectedScore).toBeCloseTo(11 / 3, 12);
  });

  it("a failing endpoint: 5xx then success is retried with backoff; a timeout is an error of the item, retried", async () => {
    const s = await stub({ fail: (n) => (n < 3 ? 503 : null), delayMs: (n) => (n === 3 ? 2500 : 0) });
    const f = await judgeRunFixture(s.url, { items: 2, models: 1, timeoutMs: 1000 });
    const run = await f.start();
    const outcomes: string[] = [];
    await worker(run.id, { concurrency: 1, onSettled: (_t, o) => outcomes.push(o) }).idle();
    expect(outcomes.filter((o) => o === "retry")).toHaveLength(4);
    expect((await scoresOf(f.judge.id)).length).toBe(2 * SCORES_PER_SET);
    const tasks = await getDb().judgeRunTask.findMany({ where: { runId: run.id }, orderBy: { attempts: "desc" } });
    expect(tasks.every((t) => t.status === "DONE" && t.error === null)).toBe(true);
    expect(tasks.reduce((n, t) => n + t.attempts, 0)).toBe(2 + 4);
  });

  it("a permanent failure is recorded per item; the run can be resumed and then completes", async () => {
    let broken = true;
    const s = await stub({ fail: () => (broken ? 500 : null) });
    const f = await judgeRunFixture(s.url, { items: 2, models: 1 });
    const run = await f.start({ maxAttempts: 2 });
    await worker(run.id).idle();
    let p = (await runProgress(run.id))!;
    expect(p).toMatchObject({ status: "DONE", tasks: { failed: 2, done: 0 } });
    expect(p.errors).toEqual([expect.objectContaining({ attempts: 2, error: expect.stringMatching(/^HTTP 500: .*stub failure 500/) }), expect.anything()]);
    expect(await scoresOf(f.judge.id)).toHaveLength(0);
    broken = false;
    expect(await resumeRun(run.id)).toBe(2);
    await worker(run.id).idle();
    p = (await runProgress(run.id))!;
    expect(p).toMatchObject({ status: "DONE", tasks: { failed: 0, done: 2 }, errors: [] });
    expect(await scoresOf(f.judge.id)).toHaveLength(2 * SCORES_PER_SET);
  });

  it("a 4xx other than 429 is not retried; a malformed reply is an error for that item", async () => {
    const s = await stub({ fail: (n) => (n === 0 ? 401 : null), content: (n) => (n >= 1 ? "Sorry, I cannot grade this." : null) });
    const f = await judgeRunFixture(s.url, { items: 2, models: 1 });
    const run = await f.start({ maxAttempts: 2 });
    await worker(run.id, { concurrency: 1 }).idle();
    const errors = (await runProgress(run.id))!.errors.sort((a, b) => a.attempts - b.attempts);
    expect(errors).toEqual([
      { item: expect.any(String), attempts: 1, error: expect.stringMatching(/^HTTP 401: /) },
      { item: expect.any(String), attempts: 2, error: expect.stringMatching(/^the reply has no JSON object/) },
    ]);
  });

  it("cancel: tasks not done are cancelled and write nothing (one finishing as it is cancelled counts as done); resume finishes the rest", async () => {
    const s = await stub({ delayMs: () => 300 });
    const f = await judgeRunFixture(s.url, { items: 4, models: 1 });
    const run = await f.start();
    let settled = 0;
    const w = worker(run.id, { concurrency: 2, onSettled: () => settled++ });
    while (settled < 1) await new Promise((r) => setTimeout(r, 20));
    expect(await cancelRun(run.id)).toBe(true);
    expect(await cancelRun(run.id)).toBe(false);
    await w.idle();
    await w.stop();
    const p = (await runProgress(run.id))!;
    expect(p.status).toBe("CANCELLED");
    const done = p.tasks.done;
    expect(done).toBeGreaterThanOrEqual(1);
    expect(p.tasks.cancelled).toBe(4 - done);
    expect(await scoresOf(f.judge.id)).toHaveLength(done * SCORES_PER_SET);
    await resumeRun(run.id);
    await worker(run.id).idle();
    expect(await scoresOf(f.judge.id)).toHaveLength(4 * SCORES_PER_SET);
    expect((await runProgress(run.id))!.status).toBe("DONE");
  });

  it("a worker whose lease expired and was taken over writes nothing when it settles", async () => {
    const s = await stub();
    const f = await judgeRunFixture(s.url, { items: 1, models: 1 });
    const run = await f.start();
    const [first] = await claimTasks(1, 60_000, run.id);
    await getDb().$executeRaw`UPDATE "JudgeRunTask" SET "leaseExpiresAt" = now() - interval '1 second' WHERE id = ${first.id}::uuid`;
    const [second] = await claimTasks(1, 60_000, run.id);
    expect(second).toMatchObject({ id: first.id, attempts: 2 });
    const result = { scores: [{ responseSetId: first.responseSetId!, rubric: "SCORE", dimension: "safety", repetition: 1, value: 3, probabilities: { "1": 0, "2": 0, "3": 1, "4": 0, "5": 0 } }], promptTokens: 1, completionTokens: 1, requests: 1 };
    const write = (t: typeof first) => (tx: Tx) => writeRunScores(tx, { studyId: f.study.id, judgeId: f.judge.id, createdById: f.lead.id }, t.responseSetId!, result.scores);
    expect(await settleDone(first, result, write(first))).toBe(false);
    expect(await scoresOf(f.judge.id)).toHaveLength(0);
    expect(await settleDone(second, result, write(second))).toBe(true);
    expect(await scoresOf(f.judge.id)).toHaveLength(1);
  });

  it("a set judged after its run was cancelled writes nothing: the cancel and the settle take the run's lock first", async () => {
    const s = await stub();
    const f = await judgeRunFixture(s.url, { items: 1, models: 1 });
    const run = await f.start();
    const [task] = await claimTasks(1, 60_000, run.id);
    const result = { scores: [{ responseSetId: task.responseSetId!, rubric: "SCORE", dimension: "safety", repetition: 1, value: 3, probabilities: { "1": 0, "2": 0, "3": 1, "4": 0, "5": 0 } }], promptTokens: 1, completionTokens: 1, requests: 1 };
    expect(await cancelRun(run.id)).toBe(true);
    expect(await settleDone(task, result, (tx) => writeRunScores(tx, { studyId: f.study.id, judgeId: f.judge.id, createdById: f.lead.id }, task.responseSetId!, result.scores))).toBe(false);
    expect(await scoresOf(f.judge.id)).toHaveLength(0);
    // A write that fails inside the settle leaves the task as it was: nothing half-written.
    expect(await resumeRun(run.id)).toBe(1);
    const [again] = await claimTasks(1, 60_000, run.id);
    await expect(settleDone(again, result, async (tx) => {
      await writeRunScores(tx, { studyId: f.study.id, judgeId: f.judge.id, createdById: f.lead.id }, again.responseSetId!, result.scores);
      throw new Error("the connection dropped");
    })).rejects.toThrow("the connection dropped");
    expect(await scoresOf(f.judge.id)).toHaveLength(0);
    expect((await getDb().judgeRunTask.findUniqueOrThrow({ where: { id: again.id } })).status).toBe("RUNNING");
  });

  it("an endpoint's concurrency holds across workers: never more requests in flight than it allows", async () => {
    const s = await stub({ delayMs: () => 150 });
    const f = await judgeRunFixture(s.url, { items: 4, models: 2, concurrency: 2 });
    const run = await f.start();
    const a = worker(run.id, { concurrency: 4 });
    const b = worker(run.id, { concurrency: 4 });
    await Promise.all([a.idle(), b.idle()]);
    expect(s.maxInFlight()).toBe(2);
    expect(await scoresOf(f.judge.id)).toHaveLength(8 * SCORES_PER_SET);
  });

  it("two workers over many rounds never run nor write a set twice", async () => {
    const s = await stub({ delayMs: () => Math.floor(Math.random() * 30) });
    const f = await judgeRunFixture(s.url, { items: 6, models: 2 });
    const db = getDb();
    for (let round = 0; round < 6; round++) {
      // Each round starts over: the judge's scores go, a new run takes every set.
      await db.judgeScore.deleteMany({ where: { judgeId: f.judge.id } });
      const before = s.bodies.length;
      const run = await f.start();
      const a = worker(run.id, { concurrency: 3 });
      const b = worker(run.id, { concurrency: 3 });
      await Promise.all([a.idle(), b.idle()]);
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      const tasks = await db.judgeRunTask.findMany({ where: { runId: run.id } });
      expect(tasks.every((t) => t.status === "DONE" && t.attempts === 1), `round ${round}`).toBe(true);
      expect(s.bodies.length - before).toBe(f.sets.length * REQUESTS_PER_SET);
      expect(await scoresOf(f.judge.id)).toHaveLength(f.sets.length * SCORES_PER_SET);
    }
  });
});

describe("a restart mid-run", () => {
  it("a worker process killed after k sets: a new worker takes over its leases and completes the rest, each set scored once", async () => {
    const { spawn } = await import("node:child_process");
    const s = await stub({ delayMs: () => 200 });
    const f = await judgeRunFixture(s.url, { items: 5, models: 2 });
    const run = await f.start();
    const db = getDb();
    const child = spawn(process.execPath, ["--import", "tsx", "tests/integration/helpers/judge-worker-child.ts"], {
      env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL, RUN_ID: run.id, LEASE_MS: "1500", LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const k = 3;
    let settled = 0;
    await new Promise<void>((resolve, reject) => {
      child.on("exit", () => reject(new Error(`the worker process exited after ${settled} sets`)));
      child.stdout.on("data", (chunk: Buffer) => {
        settled += chunk.toString().split("\n").filter((l) => l.startsWith("settled")).length;
        if (settled >= k) {
          child.removeAllListeners("exit");
          child.kill("SIGKILL");
          resolve();
        }
      });
    });
    await new Promise((r) => child.once("exit", r));
    // Killed in the middle: some tasks are still leased to the dead process.
    const leased = await db.judgeRunTask.count({ where: { runId: run.id, status: "RUNNING" } });
    const doneBefore = await db.judgeRunTask.count({ where: { runId: run.id, status: "DONE" } });
    expect(leased).toBeGreaterThan(0);
    expect(doneBefore).toBeGreaterThanOrEqual(k);
    expect(doneBefore).toBeLessThan(f.sets.length);
    await worker(run.id, { leaseMs: 1500 }).idle();
    const tasks = await db.judgeRunTask.findMany({ where: { runId: run.id } });
    expect(tasks.every((t) => t.status === "DONE")).toBe(true);
    expect(tasks.filter((t) => t.attempts === 2).length).toBe(leased); // the dead worker's leases, taken over once each
    const scores = await scoresOf(f.judge.id);
    expect(scores).toHaveLength(f.sets.length * SCORES_PER_SET);
    expect(new Set(scores.map((x) => `${x.responseSetId}/${x.dimension}/${x.repetition}`)).size).toBe(scores.length);
    expect((await runProgress(run.id))!.status).toBe("DONE");
  });
});

describe("npm run admin -- judge-run", () => {
  it("works on one run in the foreground until it is settled and says how it went", async () => {
    const { spawn } = await import("node:child_process");
    const s = await stub();
    const f = await judgeRunFixture(s.url, { items: 2, models: 1 });
    const run = await f.start();
    const out = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, ["--import", "tsx", "scripts/admin.ts", "judge-run", "--id", run.id], { env: { ...process.env, LOG_LEVEL: "silent" } });
      let stdout = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d));
      child.on("close", (code) => resolve({ code, stdout }));
    });
    expect(out.stdout).toMatch(/DONE: 2\/2 done, 0 failed/);
    expect(out.code).toBe(0);
    expect(await scoresOf(f.judge.id)).toHaveLength(2 * SCORES_PER_SET);
  }, 150_000); // the admin script's start (tsx, the database check) is slow on a busy machine
});
