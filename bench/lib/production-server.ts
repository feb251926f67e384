import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * Node's arguments for the production server as `npm start` runs it (package.json):
 * the standalone folder's start script with the same Node flags, then `flags`
 * (a benchmark's profiler flags), then the start command's `args`. `dir` is the
 * standalone folder, the build's own by default; e2e/serve.ts passes a copy of it
 * outside the checkout, which proves the folder runs on its own. `npm start`
 * itself always runs `.next/standalone`; the tests and benchmarks also honour
 * CLINGRADE_DIST_DIR (a second build beside the first).
 */
export function productionServerArgs(args: string[], dir = standaloneDir(), flags: string[] = []): string[] {
  const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
  const words = scripts.start.split(/\s+/);
  const script = words.findIndex((w) => w.endsWith("/start.mjs"));
  if (words[0] !== "node" || script < 0 || words[script + 1] !== "start") {
    throw new Error(`package.json's start script is not \`node <flags> .next/standalone/start.mjs start\`: ${scripts.start}`);
  }
  return [...words.slice(1, script), ...flags, path.join(dir, "start.mjs"), "start", ...args];
}

/** The build's standalone folder: in `.next`, or in `distDir` (CLINGRADE_DIST_DIR by default: a second build beside the first). */
export function standaloneDir(distDir = process.env.CLINGRADE_DIST_DIR ?? ".next"): string {
  return path.resolve(distDir, "standalone");
}
