/**
 * In-memory benchmark of the pairwise analysis alone (no database): the bench/pairwise/run.ts
 * study's shape (10 models x 2,000 questions, 5.5 comparisons per question, 3 graders, 3 axes:
 * 99,000 preferences) drawn in memory from Davidson's model, then analysePreferences with
 * BENCH_REPLICATES (default 1,000) bootstrap fits per axis, single thread: wall and CPU time
 * (the CPU time is steadier on a shared machine).
 *
 *   npx tsx bench/pairwise/fit.ts            (profile: node --cpu-prof --import tsx bench/pairwise/fit.ts)
 */
import { performance } from "node:perf_hooks";
import { mulberry32 } from "../../lib/stats/bootstrap";
import { analysePreferences, type PreferenceObservation } from "../../lib/stats/pairwise";

const MODELS = 10;
const QUESTIONS = 2_000;
const GRADERS = 3;
const AXES = ["accuracy", "safety", "clarity"];
const STRENGTH = (m: number) => (m - (MODELS - 1) / 2) * 0.3;

export function simulatedRows(seed = 34): PreferenceObservation[] {
  const rng = mulberry32(seed);
  const rows: PreferenceObservation[] = [];
  const name = (m: number) => `model-${String(m).padStart(2, "0")}`;
  for (let q = 1; q <= QUESTIONS; q++) {
    for (let k = 0; k < (q % 2 === 0 ? 6 : 5); k++) {
      const a = (q + 2 * k) % MODELS;
      const b = (a + 1 + (q % 9)) % MODELS;
      const [l, r] = rng() < 0.5 ? [a, b] : [b, a];
      const pl = Math.exp(STRENGTH(l));
      const pr = Math.exp(STRENGTH(r));
      const t = 0.5 * Math.sqrt(pl * pr);
      for (let g = 0; g < GRADERS; g++)
        for (const axis of AXES) {
          const u = rng() * (pl + pr + t);
          rows.push({ comparison: `c${q}.${k}`, question: `q${q}`, axis, grader: `g${g}`, leftModel: name(l), rightModel: name(r), leftLength: 200 + ((q * 7 + l) % 1000), rightLength: 200 + ((q * 11 + r) % 1000), choice: u < pl ? "left" : u < pl + t ? "tie" : "right", primary: true });
        }
    }
  }
  return rows;
}

if (process.argv[1]?.endsWith("fit.ts")) {
  const rows = simulatedRows();
  const replicates = Number(process.env.BENCH_REPLICATES ?? 1000);
  for (const r of [0, replicates]) {
    analysePreferences(rows, { replicates: r, seed: 20261205 });
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const out = analysePreferences(rows, { replicates: r, seed: 20261205 });
    const cpu = process.cpuUsage(cpu0);
    console.log(`${rows.length} preferences, ${r} replicates: ${(performance.now() - t0).toFixed(0)} ms (CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms); overall ${out.axes.at(-1)!.strengths.logStrength!.map((v) => v.toFixed(3)).join(" ")}`);
  }
}
