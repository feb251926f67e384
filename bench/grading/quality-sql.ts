/**
 * What gold and re-grade tasks in a grader's queue cost the grading path's reads on their own,
 * without a server (issue #35): two like studies in one throwaway database, A's without grader
 * quality and B's with gold at one in 10 and re-grades of 20% of each queue (bench/lib/quality.ts),
 * then the grading page's read (getAssignmentForGrader), the queue's two reads (listQueueStudies,
 * listQueuePage) and the API's queue (listMyAssignments) for A's grader and B's, alternated in
 * blocks, each call's wall time (one at a time, the pool warm). Medians per call.
 *
 *   npx tsx bench/grading/quality-sql.ts [--blocks 10] [--per 20]
 */
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { disconnectDb } from "@/lib/db/client";
import { getAssignmentForGrader, listMyAssignments } from "@/lib/grading/service";
import { listQueuePage, listQueueStudies } from "@/lib/queue/queries";
import { generateStudy } from "../lib/harness";
import { throwawayDatabase } from "../lib/server";

const { values } = parseArgs({ options: { blocks: { type: "string", default: "10" }, per: { type: "string", default: "20" } } });
const BLOCKS = Number(values.blocks);
const PER = Number(values.per);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const db = await throwawayDatabase("bench_quality_sql");
try {
  const plain = await generateStudy(db.url, { graders: 2, perGrader: 280, rubrics: "custom" });
  const quality = await generateStudy(db.url, { graders: 2, perGrader: 280, rubrics: "custom", quality: { goldRate: 10, washoutShare: 0.2 } });
  console.log(`B: ${quality.qualityTasks?.gold} gold and ${quality.qualityTasks?.regrade} re-grade tasks over 2 queues of about 280 sets`);
  const sides = [
    { label: "A (plain)", g: plain.graders[0], studyId: plain.studyId },
    { label: "B (gold + re-grades)", g: quality.graders[0], studyId: quality.studyId },
  ];
  const calls: Record<string, (s: (typeof sides)[number], i: number) => Promise<unknown>> = {
    "grading page read": (s, i) => getAssignmentForGrader(s.g.id, s.g.assignmentIds[i % 50]),
    "queue: studies": (s) => listQueueStudies(s.g.id),
    "queue: first page": (s) => listQueuePage(s.g.id, s.studyId, { status: undefined, page: 1, pageSize: 25 }),
    "API queue (all rows)": (s) => listMyAssignments(s.g.id),
  };
  const times = new Map<string, number[]>();
  for (const name of Object.keys(calls)) for (const s of sides) for (let i = 0; i < 20; i++) await calls[name](s, i); // warm-up
  for (let b = 0; b < BLOCKS; b++) {
    const order = b % 2 === 0 ? sides : [...sides].reverse();
    for (const name of Object.keys(calls)) {
      for (const s of order) {
        for (let i = 0; i < PER; i++) {
          const t0 = performance.now();
          await calls[name](s, i);
          const key = `${name}|${s.label}`;
          times.set(key, [...(times.get(key) ?? []), performance.now() - t0]);
        }
      }
    }
  }
  console.log(`median ms per call, ${BLOCKS} alternated blocks of ${PER}:`);
  for (const name of Object.keys(calls)) {
    const [a, b] = sides.map((s) => median(times.get(`${name}|${s.label}`)!));
    console.log(`${name.padEnd(24)} A ${a.toFixed(3).padStart(7)}   B ${b.toFixed(3).padStart(7)}   B / A ${(b / a).toFixed(3)}`);
  }
} finally {
  await disconnectDb();
  await db.drop();
}
process.exit(0);
