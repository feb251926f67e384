/**
 * What the metrics cost a request: apiRoute's routePattern + observeRequest
 * (a counter and a histogram with route, method and status labels), timed over
 * many calls in-process, and one scrape of a registry holding the series of
 * every API route (each with several statuses).
 *   npx tsx bench/ops/metrics.ts
 */
import { metrics, observeRequest, routePattern } from "../../lib/server/metrics";

const N = Number(process.env.BENCH_CALLS ?? 200_000);
const id = "0b7e6c1e-9a9d-4c55-8a51-1f3f6a3f1c22";
const paths: [string, Record<string, string>][] = [
  [`/api/v1/studies/${id}`, { id }],
  [`/api/v1/assignments/${id}/grades`, { id }],
  [`/api/v1/studies/${id}/graders/${id.replace(/^0/, "1")}`, { id, userId: id.replace(/^0/, "1") }],
  ["/api/v1/me/assignments", {}],
];
// Fill the registry as a busy server would: 25 routes x 2 methods x 4 statuses.
for (let r = 0; r < 25; r++) for (const m of ["GET", "PUT"]) for (const s of [200, 401, 404, 422]) observeRequest(`/api/v1/route-${r}/[id]`, m, s, 0.01 * (r + 1));

for (let round = 0; round < 3; round++) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    const [p, params] = paths[i % paths.length];
    observeRequest(routePattern(p, params), "GET", 200, 0.012);
  }
  const ns = Number(process.hrtime.bigint() - t0) / N;
  console.log(`round ${round + 1}: ${(ns / 1000).toFixed(2)} µs per request (routePattern + counter + histogram), ${N} calls`);
}
const s0 = process.hrtime.bigint();
const text = await metrics().registry.metrics();
console.log(`one scrape: ${(Number(process.hrtime.bigint() - s0) / 1e6).toFixed(1)} ms, ${Math.round(text.length / 1024)} kB, ${text.split("\n").filter((l) => l && !l.startsWith("#")).length} samples`);
