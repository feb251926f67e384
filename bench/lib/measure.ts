/**
 * Time and peak memory of a step, for the benchmarks that report both. Kept
 * apart from harness.ts (which loads Prisma and next-auth) so that a benchmark
 * measuring its own process's memory does not load them just for this.
 */
import { performance } from "node:perf_hooks";

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Peak resident memory while `fn` runs, sampled every 20 ms, with the time it took. */
export async function measure<T>(fn: () => Promise<T>): Promise<{ ms: number; peakRss: number; value: T }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  const t0 = performance.now();
  try {
    const value = await fn();
    return { ms: performance.now() - t0, peakRss: Math.max(peak, process.memoryUsage.rss()), value };
  } finally {
    clearInterval(timer);
  }
}
