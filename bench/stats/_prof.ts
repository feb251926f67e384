import { performance } from "node:perf_hooks";
import { loadStudy } from "../../lib/analytics/load";
import { assembleStudyStats } from "../../lib/analytics/assemble";
process.env.DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/clingrade_bench_stats_a63b29c5";
const id = process.argv[2];
for (let i = 0; i < 3; i++) {
  let t = performance.now();
  const l = await loadStudy(id);
  const tl = performance.now() - t;
  t = performance.now();
  const s = assembleStudyStats(l!);
  console.log(`load ${tl.toFixed(0)} assemble ${(performance.now() - t).toFixed(0)}`, s.scope);
}
process.exit(0);
