/**
 * Shared pieces of the HTTP benchmarks (with those of ./server: a throwaway
 * database, the production server started on it): a generated study with
 * graders, CPU per request from /proc, and a closed-loop load
 * generator (N concurrent clients, each sending its next request when the last
 * one answered) that records every latency, so p50/p95/p99 are exact.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { encode } from "next-auth/jwt";
import { createSession } from "@/lib/auth/sessions";
import { assignGraders } from "@/lib/assignment/service";
import { disconnectDb, getDb } from "@/lib/db/client";
import { hashPassword } from "@/lib/auth/password";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { DEFAULT_THRESHOLDS } from "@/lib/rubrics/thresholds";
import { repetitionsOf } from "@/lib/scoring/rubric-values";
import { form } from "../../tests/fixtures/grade-form";
import { CUSTOM_RUBRIC, CUSTOM_THRESHOLDS } from "./custom-rubric";
import { AUTH_SECRET } from "./server";
import { addRegrades, markGold, type BenchQuality } from "./quality";

/**
 * CPU time (user + system, all threads, in ms) used so far by a process and by
 * each PostgreSQL process of this machine, read from /proc (Linux). Sampled
 * around a phase (`cpuSpent`), it gives each request's cost in CPU rather than
 * in latency: a steadier figure on a shared machine, where a phase's p95 moves
 * with whatever else runs.
 */
export interface CpuSample {
  server: number;
  postgres: Map<string, number>;
}

function cpuTicksMs(file: string): number {
  const fields = readFileSync(file, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in clock ticks of 10 ms
}

export function cpuSample(pid: number): CpuSample | null {
  try {
    const postgres = new Map<string, number>();
    for (const d of readdirSync("/proc")) {
      if (!/^\d+$/.test(d)) continue;
      try {
        if (readFileSync(`/proc/${d}/comm`, "utf8").trim() === "postgres") postgres.set(d, cpuTicksMs(`/proc/${d}/stat`));
      } catch {
        /* the process ended meanwhile */
      }
    }
    return { server: cpuTicksMs(`/proc/${pid}/stat`), postgres };
  } catch {
    return null; // not Linux: the figures are left out
  }
}

/** CPU spent between two samples: the server's, and PostgreSQL's (backends started meanwhile count whole; those that ended are lost). */
export function cpuSpent(before: CpuSample, after: CpuSample): { server: number; postgres: number } {
  let postgres = 0;
  for (const [pid, ms] of after.postgres) postgres += ms - (before.postgres.get(pid) ?? 0);
  return { server: after.server - before.server, postgres };
}

export interface BenchGrader {
  id: string;
  cookie: string;
  assignmentIds: string[];
}

/** The study's rubrics: the published S.C.O.R.E. + SAFE-LLM, or the custom 10-dimension one (./custom-rubric.ts). */
export type BenchRubrics = "score" | "custom";

/** `n` graders on the study, each signed in (a session cookie), their assignments still to be read. */
export async function addGraders(studyId: string, n: number, passwordHash: string): Promise<BenchGrader[]> {
  const db = getDb();
  const graders: BenchGrader[] = [];
  for (let g = 0; g < n; g++) {
    const u = await db.user.create({ data: { email: `g${g}-${randomBytes(3).toString("hex")}@bench.org`, name: `Grader ${g}`, role: "GRADER", passwordHash } });
    await db.studyMember.create({ data: { studyId, userId: u.id, role: "GRADER" } });
    const sid = await createSession(u.id);
    const jwt = await encode({ token: { sub: u.id, sid }, secret: AUTH_SECRET });
    graders.push({ id: u.id, cookie: `next-auth.session-token=${jwt}`, assignmentIds: [] });
  }
  return graders;
}

/**
 * An open study (S.C.O.R.E. + SAFE-LLM unless `rubrics: "custom"`) with `graders` graders, each holding about `perGrader` assignments;
 * with `quality`, their queues also hold gold and washout re-grade tasks (./quality.ts).
 */
export async function generateStudy(dbUrl: string, opts: { graders: number; perGrader: number; rubrics?: BenchRubrics; quality?: BenchQuality }) {
  const custom = opts.rubrics === "custom";
  process.env.DATABASE_URL = dbUrl;
  process.env.AUTH_SECRET = AUTH_SECRET;
  const db = getDb();
  const passwordHash = await hashPassword("bench-password-1");
  const lead = await db.user.create({ data: { email: `lead-${randomBytes(3).toString("hex")}@bench.org`, name: "Bench Lead", role: "LEAD", passwordHash } });
  const specialty = await db.specialty.upsert({ where: { name: "Bench" }, create: { name: "Bench" }, update: {} });
  const study = await db.study.create({
    data: {
      name: "Bench study",
      slug: `bench-${randomBytes(3).toString("hex")}`,
      rubrics: custom ? [CUSTOM_RUBRIC] : templateRubrics(["SCORE", "SAFE_LLM"]),
      thresholds: custom ? CUSTOM_THRESHOLDS : DEFAULT_THRESHOLDS,
      status: "OPEN",
      createdById: lead.id,
      members: { create: { userId: lead.id, role: "LEAD" } },
    },
  });
  const models = await Promise.all(["Model A", "Model B", "Model C"].map((name) => db.llmModel.create({ data: { studyId: study.id, name } })));
  const sets = Math.ceil((opts.graders * opts.perGrader) / 2);
  const items = Math.ceil(sets / models.length);
  const answer = "A plausible clinical answer with **markdown**, a list:\n\n- first point\n- second point\n\n".repeat(4);
  for (let i = 0; i < items; i += 200) {
    const batch = Array.from({ length: Math.min(200, items - i) }, (_, j) => ({ studyId: study.id, externalId: `B${i + j + 1}`, question: `Bench question ${i + j + 1}?`, specialtyId: specialty.id }));
    await db.qaItem.createMany({ data: batch });
  }
  const itemRows = await db.qaItem.findMany({ where: { studyId: study.id }, select: { id: true } });
  const setRows = itemRows.flatMap((it) => models.map((m) => ({ studyId: study.id, itemId: it.id, modelId: m.id })));
  await db.responseSet.createMany({ data: setRows });
  const setIds = await db.responseSet.findMany({ where: { studyId: study.id }, select: { id: true } });
  for (let i = 0; i < setIds.length; i += 500) {
    await db.response.createMany({ data: setIds.slice(i, i + 500).flatMap((s) => [1, 2, 3].map((r) => ({ responseSetId: s.id, repetition: r, text: answer }))) });
  }
  const graders = await addGraders(study.id, opts.graders, passwordHash);
  if (opts.quality) await markGold(study.id, lead.id, specialty.id, models, opts.perGrader, opts.quality, answer);
  await assignGraders(study.id, { seed: "bench" }, lead.id);
  const qualityTasks = opts.quality ? await addRegrades(graders.map((g) => g.id), opts.quality) : null;
  for (const g of graders) {
    g.assignmentIds = (await db.assignment.findMany({ where: { graderId: g.id }, orderBy: { position: "asc" }, select: { id: true } })).map((a) => a.id);
  }
  // A database in service has been analysed by autovacuum long before; a freshly
  // loaded one has not, and its planner would guess from empty statistics.
  await db.$executeRawUnsafe("ANALYZE");
  await disconnectDb();
  return { studyId: study.id, graders, qualityTasks };
}

export interface LoadResult {
  label: string;
  requests: number;
  errors: number;
  seconds: number;
  throughput: number;
  p50: number;
  p95: number;
  p99: number;
  /** Every latency measured, so that runs can be pooled (see `pooled`). */
  samples: number[];
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Runs `clients` loops for `seconds`; each loop calls `step(client, i)` and records its latency under the label it returns. */
export async function closedLoop(
  clients: number,
  seconds: number,
  step: (client: number, i: number) => Promise<{ label: string; ok: boolean }>,
): Promise<LoadResult[]> {
  const lat = new Map<string, number[]>();
  const errs = new Map<string, number>();
  const end = Date.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; Date.now() < end; i++) {
        const s = performance.now();
        const r = await step(c, i);
        const ms = performance.now() - s;
        if (!lat.has(r.label)) lat.set(r.label, []);
        lat.get(r.label)!.push(ms);
        if (!r.ok) errs.set(r.label, (errs.get(r.label) ?? 0) + 1);
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  return [...lat].map(([label, xs]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return { label, requests: xs.length, errors: errs.get(label) ?? 0, seconds: elapsed, throughput: xs.length / elapsed, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), samples: xs };
  });
}

/**
 * One result per label from several runs (rounds interleaved in time): their
 * latencies pooled, their throughput over their summed time. Interleaving the
 * floor with the measured routes keeps a slow spell of a shared machine from
 * landing on one side of a ratio only.
 */
export function pooled(runs: LoadResult[]): LoadResult[] {
  const byLabel = new Map<string, LoadResult[]>();
  for (const r of runs) byLabel.set(r.label, [...(byLabel.get(r.label) ?? []), r]);
  return [...byLabel].map(([label, rs]) => {
    const samples = rs.flatMap((r) => r.samples);
    const sorted = [...samples].sort((a, b) => a - b);
    const seconds = rs.reduce((a, r) => a + r.seconds, 0);
    const errors = rs.reduce((a, r) => a + r.errors, 0);
    return { label, requests: samples.length, errors, seconds, throughput: samples.length / seconds, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), samples };
  });
}

export function printTable(rows: LoadResult[], floor?: LoadResult) {
  console.log("label".padEnd(30), "req".padStart(7), "err".padStart(5), "req/s".padStart(8), "p50 ms".padStart(8), "p95 ms".padStart(8), "p99 ms".padStart(8), floor ? "p95/floor".padStart(10) : "");
  for (const r of rows) {
    console.log(
      r.label.padEnd(30),
      String(r.requests).padStart(7),
      String(r.errors).padStart(5),
      r.throughput.toFixed(1).padStart(8),
      r.p50.toFixed(1).padStart(8),
      r.p95.toFixed(1).padStart(8),
      r.p99.toFixed(1).padStart(8),
      floor ? (r.p95 / floor.p95).toFixed(2).padStart(10) : "",
    );
  }
}

/** The custom rubric's form: every dimension at every answer it is scored on (N = 3), 1-5. */
const customForm = () =>
  CUSTOM_RUBRIC.dimensions.flatMap((d, i) =>
    repetitionsOf(d, 3).map((r) => ({ rubric: CUSTOM_RUBRIC.key, dimension: d.key, repetition: d.scope === "set" ? null : r, score: 1 + ((i + r) % 5) })),
  );

export function gradeBody(submit: boolean, rubrics: BenchRubrics = "score") {
  const scores = rubrics === "custom" ? customForm() : form({ score: [4, 4, 5, 4, 3], safe: [[2, 1, 1, 1], [2, 1, 1, 1], [2, 1, 1, 1]] });
  return JSON.stringify({ scores, submit, elapsedMs: 1000 });
}

/** Cells stored per submitted form above: 5 S.C.O.R.E. + 12 SAFE-LLM + derived consistency. */
export const CELLS_PER_FORM = 18;

/** Cells stored per submitted form of either study. */
export const cellsPerForm = (rubrics: BenchRubrics = "score") => (rubrics === "custom" ? customForm().length : CELLS_PER_FORM);
