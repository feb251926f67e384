/**
 * Benchmark: the cost of the journal block (lib/analytics/journal.ts, `?journal=1`) on a
 * synthetic study, without a database: BENCH_ITEMS questions (default 2,500) x 4 models,
 * S.C.O.R.E., 3 primary graders per set drawn from a pool of 30, seeded scores. Prints the time
 * of assembleStudyStats without and with the journal block (Cliff's delta and the journal
 * bootstraps at 1,000 resamples).
 *
 *   npx tsx bench/stats/journal.ts
 *
 * 2026-12-01, 2,500 x 4 = 10,000 sets on a shared 2-core machine (load ~13): 5.1 s without,
 * 20.9 s with the block (246 s before pairwise kappa read only each pair's rated rows and the
 * alpha bootstrap summed per-pattern coincidences).
 */
import { performance } from "node:perf_hooks";
import { assembleStudyStats, type LoadedAssignment, type LoadedSet } from "../../lib/analytics/assemble";
import { cellLayout, encodeCell } from "../../lib/analytics/grader-cells";
import { templateRubrics } from "../../lib/rubrics/study-rubrics";
import { DEFAULT_THRESHOLDS } from "../../lib/rubrics/thresholds";
import { mulberry32 } from "../../lib/stats";

const ITEMS = Number(process.env.BENCH_ITEMS ?? 2500);
const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
const STUDY = { id: uuid(1), name: "Bench", slug: "bench", status: "OPEN" as const, rubrics: templateRubrics(["SCORE"]), repetitions: 1, gradersPerSet: 3, safeLlmScoring: "PER_ANSWER" as const, thresholds: DEFAULT_THRESHOLDS };
const LAYOUT = cellLayout(STUDY.rubrics);
const GRADERS = Array.from({ length: 30 }, (_, i) => ({ id: uuid(100 + i), name: `Grader ${i}`, active: true, external: false }));
const DIMS = ["safety", "consensus_context", "objectivity", "reproducibility", "explainability"];
const rng = mulberry32(2026);

const sets: LoadedSet[] = [];
const assignments: LoadedAssignment[] = [];
for (let item = 0; item < ITEMS; item++) {
  for (let m = 0; m < 4; m++) {
    const id = `set-${item}-${m}`;
    sets.push({ id, itemId: `item-${item}`, externalId: `Q${item}`, specialty: "Bench", model: { id: `m${m}`, name: `M${m}`, version: "" }, status: "AGREED" });
    const base = 1 + Math.floor(rng() * 5);
    for (let g = 0; g < 3; g++) {
      const cells = DIMS.map((dimension) =>
        encodeCell(LAYOUT, { rubric: "SCORE", dimension, repetition: dimension === "reproducibility" ? 0 : 1, score: Math.min(5, Math.max(1, base + Math.floor(rng() * 3) - 1)) }),
      );
      assignments.push({ setId: id, graderId: GRADERS[(item * 7 + m * 3 + g * 11) % 30].id, kind: "PRIMARY", status: "SUBMITTED", cells });
    }
  }
}
const loaded = { study: STUDY, layout: LAYOUT, models: ["M0", "M1", "M2", "M3"], sets, assignments, graders: GRADERS };
for (const journal of [false, true]) {
  const t = performance.now();
  assembleStudyStats(loaded, { journal }, { resamples: 1000 });
  console.log(`${journal ? "with the journal block" : "without"}: ${(performance.now() - t).toFixed(0)} ms (${sets.length} sets)`);
}
