import { isUuid } from "@/lib/db/uuid";
import { resumeRun } from "./jobs";
import { runProgress } from "./runs";
import { startJudgeWorker } from "./worker";

/**
 * `npm run admin -- judge-run --id RUN_ID [--resume]`: works on one run in the
 * foreground until it is settled, beside (or instead of) the app's own
 * workers: the leases keep them from running a set twice.
 */
export async function runJudgeRunCommand(runId: string | undefined, opts: { resume?: boolean; say: (line: string) => void }): Promise<number> {
  if (!runId || !isUuid(runId)) throw Object.assign(new Error("judge-run needs --id RUN_ID (a run's id, from GET /api/v1/studies/{id}/judges/{judgeId}/runs)"), { name: "UserError" });
  const before = await runProgress(runId);
  if (!before) throw Object.assign(new Error(`no judge run ${runId}`), { name: "UserError" });
  if (opts.resume) opts.say(`Requeued ${await resumeRun(runId)} response set(s).`);
  const worker = startJudgeWorker({ runId, concurrency: Number(process.env.JUDGE_WORKER_CONCURRENCY ?? 4) });
  const line = async () => {
    const p = (await runProgress(runId))!;
    opts.say(`${p.status}: ${p.tasks.done}/${p.tasks.total} done, ${p.tasks.failed} failed, ${p.tasks.running} running, ${p.tasks.retrying} waiting to retry; ${p.promptTokens + p.completionTokens} tokens, cost ${p.cost}`);
    return p;
  };
  const timer = setInterval(() => void line().catch(() => {}), 5000);
  await worker.idle();
  clearInterval(timer);
  await worker.stop();
  const p = await line();
  for (const e of p.errors) opts.say(`  ${e.item}: ${e.error} (${e.attempts} attempts)`);
  return p.tasks.failed > 0 ? 1 : 0;
}
