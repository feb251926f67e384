/**
 * A Node preload that samples its process's memory from inside, in every
 * thread (the main thread and each worker: Node runs --import preloads in
 * workers too), every MEMORY_SAMPLER_MS (250 ms), to MEMORY_SAMPLER_OUT
 * (a file; one JSON line per sample: time, thread, RSS, heap total / used,
 * external, array buffers, each V8 space's used and committed size, and in the main thread the process's anonymous and file-backed RSS, in MB):
 *
 *   BENCH_SERVER_FLAGS="--import $PWD/bench/lib/memory-sampler.mjs" MEMORY_SAMPLER_OUT=/tmp/mem.jsonl \
 *     BENCH_DIRECT=0 npx tsx bench/grade-import/run.ts
 *
 * Plain JavaScript, no dependency: it loads before anything else of the process.
 */
import { appendFileSync, readFileSync } from "node:fs";
import v8 from "node:v8";
import { isMainThread, threadId } from "node:worker_threads";

const out = process.env.MEMORY_SAMPLER_OUT;
if (out) {
  const every = Number(process.env.MEMORY_SAMPLER_MS ?? 250);
  const mb = (n) => Math.round((n / 1048576) * 10) / 10;
  const sample = () => {
    const m = process.memoryUsage();
    const line = { t: Date.now(), thread: isMainThread ? "main" : `worker ${threadId}`, rss: mb(m.rss), heapTotal: mb(m.heapTotal), heapUsed: mb(m.heapUsed), external: mb(m.external), arrayBuffers: mb(m.arrayBuffers), spaces: {} };
    // Each of V8's spaces: [used, committed] MB.
    for (const sp of v8.getHeapSpaceStatistics()) line.spaces[sp.space_name.replace(/_space$/, "")] = [mb(sp.space_used_size), mb(sp.physical_space_size)];
    if (isMainThread) {
      // The process's resident memory by kind: anonymous (heaps, malloc's arenas, stacks) and file-backed (code).
      const status = readFileSync("/proc/self/status", "utf8");
      for (const field of ["RssAnon", "RssFile"]) line[field] = mb(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) * 1024);
    }
    try {
      appendFileSync(out, `${JSON.stringify(line)}\n`);
    } catch {
      // A sample lost is no reason to stop the process.
    }
  };
  sample();
  setInterval(sample, every).unref();
}
