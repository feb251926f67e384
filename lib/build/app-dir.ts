import path from "node:path";

/**
 * The folder holding the build and the files read at run time (migrations,
 * the demo's data): the checkout, or the standalone folder, whose start and
 * admin scripts set CLINGRADE_APP_DIR to their own folder before anything runs
 * (scripts/build-standalone.ts), so they work from whatever directory they are started in.
 */
export function appDir(): string {
  return path.resolve(process.env.CLINGRADE_APP_DIR ?? process.cwd());
}

/** The build folder inside appDir(): `.next` unless CLINGRADE_DIST_DIR names another (benchmarks build beside development). */
export function distDirName(): string {
  return process.env.CLINGRADE_DIST_DIR ?? ".next";
}
