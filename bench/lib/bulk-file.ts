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
 * The process's memory once its RSS has stopped moving (by less than 1 MB
 * over a second, sampled every 250 ms; at most `maxMs`): a server's idle
 * level, after what it starts in the background (the grade import's waiting
 * thread, lib/workers/spare.ts) has loaded.
 */
export async function settledMemory(pid: number, maxMs = 15_000): Promise<{ peak: number; now: number } | null> {
  const deadline = Date.now() + maxMs;
  const seen: number[] = [];
  for (;;) {
    const m = memoryOf(pid);
    if (!m) return null;
    seen.push(m.now);
    const last = seen.slice(-5);
    if ((last.length === 5 && Math.max(...last) - Math.min(...last) < 1024 * 1024) || Date.now() > deadline) return m;
    await new Promise((r) => setTimeout(r, 250));
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

/**
 * The honest floor of an import that writes rows into keyed tables: the rows
 * the import wrote (`tables`, each with the WHERE that selects them, in an
 * order where each references only those before it or tables left alone) are
 * dumped to CSV files, then loaded with `psql \copy`, in one transaction,
 * into empty copies of their tables with the same columns, defaults, primary
 * and unique keys, secondary indexes (LIKE ... INCLUDING ALL) and foreign keys
 * (to the copies where the referenced table is copied too). Only the load is
 * timed.
 */
export async function copyIntoKeyedTables(url: string, tables: { name: string; where: string }[], dir: string): Promise<{ ms: number; rows: Record<string, number>; perTable: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const copyOf = (name: string) => `floor_${name.toLowerCase()}`;
  const rows: Record<string, number> = {};
  try {
    for (const t of tables) {
      const file = path.join(dir, `${copyOf(t.name)}.csv`);
      const dump = spawnSync("psql", [url, "-v", "ON_ERROR_STOP=1", "-c", `\\copy (SELECT * FROM "${t.name}" WHERE ${t.where}) TO '${file}' WITH (FORMAT csv)`], { encoding: "utf8" });
      if (dump.status !== 0) throw new Error(`psql \\copy TO failed: ${dump.stderr}`);
      rows[t.name] = Number(/COPY (\d+)/.exec(dump.stdout)?.[1] ?? NaN);
      await client.query(`CREATE TABLE ${copyOf(t.name)} (LIKE "${t.name}" INCLUDING ALL)`);
      const { rows: fks } = await client.query<{ def: string }>(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'f'`, [`"${t.name}"`]);
      for (const { def } of fks) {
        const target = /REFERENCES "?(\w+)"?\(/.exec(def)?.[1];
        const copied = tables.some((o) => o.name === target);
        await client.query(`ALTER TABLE ${copyOf(t.name)} ADD ${copied ? def.replace(/REFERENCES "?\w+"?\(/, `REFERENCES ${copyOf(target!)}(`) : def}`);
      }
    }
  } finally {
    await client.end();
  }
  const loads = tables.flatMap((t) => ["-c", `\\copy ${copyOf(t.name)} FROM '${path.join(dir, `${copyOf(t.name)}.csv`)}' WITH (FORMAT csv)`]);
  const t0 = performance.now();
  const psql = spawnSync("psql", [url, "-v", "ON_ERROR_STOP=1", "-1", "-c", "\\timing on", ...loads], { encoding: "utf8" });
  const ms = performance.now() - t0;
  if (psql.status !== 0) throw new Error(`psql \\copy into the keyed copies failed: ${psql.stderr}`);
  const times = [...psql.stdout.matchAll(/Time: ([\d.]+) ms/g)].map((m) => Number(m[1]));
  const perTable = tables.map((t, i) => `${t.name} ${((times[i] ?? NaN) / 1000).toFixed(2)} s`).join(", ");
  return { ms, rows, perTable };
}
