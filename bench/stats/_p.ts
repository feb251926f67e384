import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { assembleStudyStats, type LoadedStudy } from "../../lib/analytics/assemble";
const l = JSON.parse(readFileSync("/tmp/loaded.json", "utf8")) as LoadedStudy;
for (let i = 0; i < 3; i++) { const t = performance.now(); assembleStudyStats(l); console.log((performance.now() - t).toFixed(0)); }
