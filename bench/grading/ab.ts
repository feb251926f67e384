/**
 * Two production builds of the grading page side by side, on one throwaway
 * study, in the same minutes: where bench/grading/alone.ts runs one build and a
 * second run of another meets another load, this alternates blocks of requests
 * between the two servers (`/login`, the grading page, the assignment JSON, a
 * submission), the order of the two flipped every block, and adds up each
 * server's own CPU (from /proc) per kind. On a machine shared with other work
 * that is the fair comparison of a change: both builds pay the same load.
 *
 *   CLINGRADE_DIST_DIR=.next-base npm run build   (the baseline, from the commit to compare with)
 *   npm run build                                 (the change)
 *   npx tsx bench/grading/ab.ts [--builds .next-base,.next] [--rubrics score|custom] [--blocks 8] [--per 25] [--port 3356]
 *
 * `--builds .next-base,.next-base` runs the same build twice: the spread between
 * the two columns then is the method's own noise.
 *
 * `--quality` (issue #35): one build (default `.next` twice) and two like studies, A's without
 * grader quality and B's with gold at one in 10 of each grader's queue and washout re-grades of
 * 20% of it (bench/lib/quality.ts), so B / A is what gold and re-grade tasks in the queue cost
 * the grading page, the JSON, a submission (which draws its re-grade) and the queue page.
 */
import { parseArgs } from "node:util";
import { cpuSample, cpuSpent, generateStudy, gradeBody } from "../lib/harness";
import { startServer, throwawayDatabase } from "../lib/server";

const { values } = parseArgs({
  options: {
    builds: { type: "string", default: ".next-base,.next" },
    rubrics: { type: "string", default: "custom" },
    blocks: { type: "string", default: "8" },
    per: { type: "string", default: "25" },
    port: { type: "string", default: "3356" },
    quality: { type: "boolean", default: false },
  },
});
const QUALITY = values.quality;
if (values.rubrics !== "score" && values.rubrics !== "custom") throw new Error("--rubrics is score or custom");
const RUBRICS = values.rubrics;
const BLOCKS = Number(values.blocks);
const PER = Number(values.per);
const dirs = (QUALITY && process.argv.every((a) => !a.startsWith("--builds")) ? ".next,.next" : values.builds).split(",");
if (dirs.length !== 2) throw new Error("--builds is two build folders, comma-separated");

const db = await throwawayDatabase("bench_grading_ab");
try {
  const perGrader = BLOCKS * PER + 80;
  const { graders } = await generateStudy(db.url, { graders: 2, perGrader, rubrics: RUBRICS });
  // With --quality, B's grader is the same grader in a like study with gold and re-grades.
  if (QUALITY) {
    const withQuality = await generateStudy(db.url, { graders: 2, perGrader, rubrics: RUBRICS, quality: { goldRate: 10, washoutShare: 0.2 } });
    graders[1] = withQuality.graders[0];
    console.log(`B's study: ${withQuality.qualityTasks?.gold} gold and ${withQuality.qualityTasks?.regrade} re-grade tasks over its 2 graders' queues (about ${perGrader} sets each)`);
  }
  // Each build has a grader of its own, so that their submissions never meet.
  const builds = dirs.map((dir, i) => ({
    label: `${String.fromCharCode(65 + i)} (${dir}${QUALITY ? (i ? ", quality" : ", plain") : ""})`,
    dir,
    base: `http://127.0.0.1:${Number(values.port) + i}`,
    g: graders[i],
  }));
  const servers = await Promise.all(builds.map((b, i) => startServer(db.url, Number(values.port) + i, { CLINGRADE_DIST_DIR: b.dir })));
  try {
    type Build = (typeof builds)[number];
    const headers = { "accept-encoding": "gzip, deflate" };
    const kinds: Record<string, (b: Build, i: number) => Promise<Response>> = {
      "GET /login": (b) => fetch(`${b.base}/login`, { headers }),
      "GET /grade/[id]": (b, i) => fetch(`${b.base}/grade/${b.g.assignmentIds[i % 50]}`, { headers: { ...headers, cookie: b.g.cookie } }),
      "GET assignment JSON": (b, i) => fetch(`${b.base}/api/v1/assignments/${b.g.assignmentIds[i % 50]}`, { headers: { cookie: b.g.cookie } }),
    };
    // The queue reads the grader's whole work (assignments and quality tasks) to count and page it.
    if (QUALITY) kinds["GET /queue"] = (b) => fetch(`${b.base}/queue`, { headers: { ...headers, cookie: b.g.cookie } });
    // Submissions use up assignments, from the 60th on (the reads cycle over the first 50).
    const nextToSubmit = builds.map(() => 60);
    kinds["PUT grades (submit)"] = (b) =>
      fetch(`${b.base}/api/v1/assignments/${b.g.assignmentIds[nextToSubmit[builds.indexOf(b)]++]}/grades`, {
        method: "PUT",
        headers: { cookie: b.g.cookie, "content-type": "application/json" },
        body: gradeBody(true, RUBRICS),
      });
    const totals = new Map<string, { cpu: number; pg: number; ms: number; n: number; bytes: number }>();
    const block = async (kind: string, j: number, n: number) => {
      const pid = servers[j].proc.pid!;
      const before = cpuSample(pid);
      let bytes = 0;
      const t0 = performance.now();
      for (let i = 0; i < n; i++) {
        const r = await kinds[kind](builds[j], i);
        bytes += (await r.arrayBuffer()).byteLength;
        if (!r.ok) throw new Error(`${kind} on ${builds[j].label}: HTTP ${r.status}`);
      }
      const ms = performance.now() - t0;
      const after = cpuSample(pid);
      if (!before || !after) throw new Error("the CPU of a process is read from /proc: Linux only");
      const key = `${kind}|${j}`;
      const t = totals.get(key) ?? { cpu: 0, pg: 0, ms: 0, n: 0, bytes: 0 };
      const spent = cpuSpent(before, after);
      totals.set(key, { cpu: t.cpu + spent.server, pg: t.pg + spent.postgres, ms: t.ms + ms, n: t.n + n, bytes: t.bytes + bytes });
    };
    // Warm-up (not counted): lazy route loading and the JIT.
    for (const kind of ["GET /login", "GET /grade/[id]", "GET assignment JSON", ...(QUALITY ? ["GET /queue"] : [])]) for (const b of builds) for (let i = 0; i < 20; i++) await (await kinds[kind](b, i)).arrayBuffer();
    for (let k = 0; k < BLOCKS; k++) {
      const order = k % 2 === 0 ? [0, 1] : [1, 0];
      for (const kind of Object.keys(kinds)) for (const j of order) await block(kind, j, kind.startsWith("PUT") ? Math.ceil(PER / 2) : PER);
      process.stdout.write(".");
    }
    console.log(`\nserver CPU per request (all threads), ${RUBRICS} rubric(s), ${BLOCKS} alternated blocks:`);
    console.log("".padEnd(22), ...builds.map((b) => b.label.padStart(26)), "B / A".padStart(8));
    for (const kind of Object.keys(kinds)) {
      const t = builds.map((_, j) => totals.get(`${kind}|${j}`)!);
      const cells = t.map((x) => `${(x.cpu / x.n).toFixed(2)} ms, ${Math.round(x.bytes / x.n)} B`.padStart(26));
      console.log(kind.padEnd(22), ...cells, (t[1].cpu / t[1].n / (t[0].cpu / t[0].n)).toFixed(3).padStart(8));
    }
    // PostgreSQL's CPU is every postgres process of the machine during the block (other work on it lands here too), and the
    // time is the block's wall time per request (one at a time): both noisier than the server's CPU.
    console.log(`\nPostgreSQL CPU (machine-wide) and wall time per request:`);
    for (const kind of Object.keys(kinds)) {
      const t = builds.map((_, j) => totals.get(`${kind}|${j}`)!);
      const cells = t.map((x) => `${(x.pg / x.n).toFixed(2)} ms PG, ${(x.ms / x.n).toFixed(2)} ms`.padStart(26));
      console.log(kind.padEnd(22), ...cells, `${(t[1].pg / t[1].n / (t[0].pg / t[0].n)).toFixed(3)} / ${(t[1].ms / t[1].n / (t[0].ms / t[0].n)).toFixed(3)}`.padStart(14));
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
} finally {
  await db.drop();
}
process.exit(0);
