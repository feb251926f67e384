/**
 * The file benchmarks' shared scaffolding (bench/import, bench/grade-import):
 * a scratch folder for the generated file, the server's memory from /proc,
 * and PostgreSQL's own bulk load of the same file as the baseline.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";

/** A file `name` in a scratch folder of its own; `dispose` removes the folder. */
export async function scratchFile(prefix: string, name: string): Promise<{ file: string; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { file: path.join(dir, name), dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** Peak and current resident memory of a process (Linux), from /proc. */
export function memoryOf(pid: number): { peak: number; now: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(/\d+/.exec(status.split("\n").find((l) => l.startsWith(field)) ?? "")?.[0]) * 1024;
    return { peak: kb("VmHWM:"), now: kb("VmRSS:") };
  } catch {
    return null;
  }
}

/**
 * The baseline: `psql \copy` of the CSV file (with its header) into a bare
 * table `bench_plain` of these columns ("item_id text, score int, ..."),
 * created first; only the copy is timed. `output` is psql's ("COPY 1000").
 */
export async function copyIntoBareTable(url: string, file: string, columns: string): Promise<{ ms: number; output: string }> {
  const plain = new pg.Client({ connectionString: url });
  await plain.connect();
  await plain.query(`CREATE TABLE bench_plain (${columns})`);
  await plain.end();
  const t0 = performance.now();
  const psql = spawnSync("psql", [url, "-v", "ON_ERROR_STOP=1", "-c", `\\copy bench_plain FROM '${file}' WITH (FORMAT csv, HEADER true)`], { encoding: "utf8" });
  const ms = performance.now() - t0;
  if (psql.status !== 0) throw new Error(`psql \\copy failed: ${psql.stderr || psql.error}`);
  return { ms, output: psql.stdout.trim() };
}
