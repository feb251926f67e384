import { writeFileSync, readFileSync, existsSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { loadStudy } from "../../lib/analytics/load";
import { assembleStudyStats, type LoadedStudy } from "../../lib/analytics/assemble";
const f = "/tmp/loaded.json";
if (!existsSync(f)) { writeFileSync(f, JSON.stringify(await loadStudy(process.argv[2]))); process.exit(0); }
const l = JSON.parse(readFileSync(f, "utf8")) as LoadedStudy;
for (let i = 0; i < 2; i++) { const t = performance.now(); assembleStudyStats(l); console.log((performance.now() - t).toFixed(0)); }
