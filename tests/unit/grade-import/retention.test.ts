import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

describe("GradeRows", () => {
  // A cell is a V8 slice of the piece of file it was parsed from; an item id kept as it is would keep its
  // whole piece (48 KB) alive until the import ends, so the heap grew with the file (measured: a 55 MB file
  // with 17-character ids kept 55 MB). Run in a process of its own to read the heap after a full collection.
  it("keeps the file's values, not the pieces of file they were cut from", () => {
    const script = fileURLToPath(new URL("./retention.ts", import.meta.url));
    const run = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", script], { encoding: "utf8", cwd: process.cwd() });
    expect(run.status, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout) as { bytes: number; grades: number; items: number; grown: number };
    expect(r).toMatchObject({ grades: 60000, items: 4000 });
    expect(r.bytes).toBeGreaterThan(8 * 1024 * 1024);
    expect(r.grown).toBeLessThan(r.bytes / 4);
  }, 60_000);
});
