import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * Node's arguments for the production server as `npm start` runs it (package.json):
 * the standalone folder's start script with the same Node flags. `dir` is the
 * standalone folder, the build's own by default; e2e/serve.ts passes a copy of it
 * outside the checkout, which proves the folder runs on its own.
 */
export function productionServerArgs(args: string[], dir = standaloneDir()): string[] {
  const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
  const words = scripts.start.split(/\s+/);
  const script = words.findIndex((w) => w.endsWith("/start.mjs"));
  if (words[0] !== "node" || script < 0 || words[script + 1] !== "start") {
    throw new Error(`package.json's start script is not \`node <flags> .next/standalone/start.mjs start\`: ${scripts.start}`);
  }
  return [...words.slice(1, script), path.join(dir, "start.mjs"), "start", ...args];
}

/** The build's standalone folder: in `.next`, or in CLINGRADE_DIST_DIR's build folder (a second build beside the first). */
export function standaloneDir(): string {
  return path.resolve(process.env.CLINGRADE_DIST_DIR ?? ".next", "standalone");
}
