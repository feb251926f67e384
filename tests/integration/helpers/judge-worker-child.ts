/**
 * A judge worker in a process of its own, for the restart test: it prints one
 * line per settled task, and the test kills it (SIGKILL) mid-run.
 *   DATABASE_URL=... RUN_ID=... LEASE_MS=... tsx judge-worker-child.ts
 */
import { startJudgeWorker } from "@/lib/judges/runner/worker";

startJudgeWorker({
  runId: process.env.RUN_ID,
  concurrency: 2,
  leaseMs: Number(process.env.LEASE_MS ?? 2000),
  pollMs: 50,
  onSettled: (task, outcome) => process.stdout.write(`settled ${task.id} ${outcome}\n`),
});
process.stdout.write("started\n");
