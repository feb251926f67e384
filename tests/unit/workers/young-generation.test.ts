import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { WORKER_YOUNG_GENERATION_MB } from "@/lib/workers/run";

describe("startJobWorker", () => {
  // The server's --max-semi-space-size=32 (package.json) overrode each import thread's resourceLimits in V8:
  // a 64 MB young generation per import, most of the server's increase during a 200 MB upload.
  it("gives a job thread its own young generation under the server's --max-semi-space-size", () => {
    const script = fileURLToPath(new URL("./young-generation.ts", import.meta.url));
    const run = spawnSync(process.execPath, ["--max-semi-space-size=32", "--import", "tsx", script], { encoding: "utf8", cwd: process.cwd() });
    expect(run.status, run.stderr).toBe(0);
    const { newSpaceMb } = JSON.parse(run.stdout) as { newSpaceMb: number };
    expect(newSpaceMb).toBeGreaterThan(0);
    expect(newSpaceMb).toBeLessThanOrEqual(WORKER_YOUNG_GENERATION_MB);
  }, 60_000);
});
