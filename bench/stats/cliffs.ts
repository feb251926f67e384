/**
 * Benchmark: Cliff's delta by sort-and-sweep (lib/stats) vs the naive O(n m) double loop,
 * on 20,000 x 20,000 seeded random values, Likert-ish (heavy ties) and continuous.
 *
 *   npx tsx bench/stats/cliffs.ts
 *
 * Exits with status 1 if the two methods disagree on any delta.
 */
import { performance } from "node:perf_hooks";
import { cliffsDelta, cliffsDeltaNaive, mulberry32 } from "../../lib/stats";

const N = 20_000;
const M = 20_000;

/** Likert 1..5 with a skew towards the top of the scale (typical of clinician grades). */
function likert(rng: () => number, n: number, shift: number): number[] {
  const cut = [0.05, 0.15, 0.35, 0.65].map((c) => Math.min(1, Math.max(0, c + shift)));
  return Array.from({ length: n }, () => {
    const u = rng();
    let level = 1;
    for (const c of cut) if (u >= c) level++;
    return level;
  });
}

/** Continuous normal values (Box-Muller) with mean `mu`. */
function normal(rng: () => number, n: number, mu: number): number[] {
  return Array.from({ length: n }, () => {
    const u = 1 - rng(); // (0, 1]
    const v = rng();
    return mu + Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  });
}

function time<T>(fn: () => T): { ms: number; value: T } {
  const t0 = performance.now();
  const value = fn();
  return { ms: performance.now() - t0, value };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

let ok = true;
const rng = mulberry32(20_240_601);
const datasets: [string, number[], number[]][] = [
  ["Likert 1-5", likert(rng, N, 0), likert(rng, M, 0.05)],
  ["continuous", normal(rng, N, 0.2), normal(rng, M, 0)],
];

console.log(`Cliff's delta, n = ${N.toLocaleString("en")} x m = ${M.toLocaleString("en")}`);
for (const [name, x, y] of datasets) {
  // Warm up the JIT on the fast path, then take the median of several runs.
  for (let i = 0; i < 3; i++) cliffsDelta(x, y);
  const fastRuns: number[] = [];
  let fast = cliffsDelta(x, y);
  for (let i = 0; i < 7; i++) {
    const r = time(() => cliffsDelta(x, y));
    fastRuns.push(r.ms);
    fast = r.value;
  }
  const fastMs = median(fastRuns);
  const naive = time(() => cliffsDeltaNaive(x, y));
  const same = fast.delta === naive.value;
  ok &&= same;
  console.log(
    `${name.padEnd(11)} fast ${fastMs.toFixed(2).padStart(8)} ms | naive ${naive.ms.toFixed(1).padStart(8)} ms | ` +
      `ratio ${(naive.ms / fastMs).toFixed(0).padStart(5)}x | delta fast ${fast.delta} naive ${naive.value} ` +
      `(${fast.magnitude}) ${same ? "SAME" : "MISMATCH"}`,
  );
}
if (!ok) {
  console.error("FAIL: fast and naive Cliff's delta differ");
  process.exit(1);
}
