import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (name === "generated" || name === "node_modules") continue;
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.(ts|tsx)$/.test(name)) out.push(p);
  }
  return out;
}

/** Each file's imports of the app's own folders, as "lib/x" or "components/y". */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
    const spec = m[1];
    let target: string | null = null;
    if (spec.startsWith("@/")) target = spec.slice(2);
    else if (spec.startsWith(".")) target = path.relative(root, path.resolve(path.dirname(file), spec));
    if (target) out.push(target);
  }
  return out;
}

const libFiles = sources(path.join(root, "lib"));
const featureOf = (p: string) => p.split("/").slice(0, 2).join("/");

describe("architecture", () => {
  it("lib never imports components or app", () => {
    const bad = libFiles.flatMap((f) => importsOf(f).filter((t) => t.startsWith("components/") || t.startsWith("app/")).map((t) => `${path.relative(root, f)} -> ${t}`));
    expect(bad).toEqual([]);
  });

  it("the database layer does not import the HTTP layer", () => {
    const bad = libFiles
      .filter((f) => path.relative(root, f).startsWith("lib/db/"))
      .flatMap((f) => importsOf(f).filter((t) => t.startsWith("lib/api/") || t.startsWith("lib/server/")).map((t) => `${path.relative(root, f)} -> ${t}`));
    expect(bad).toEqual([]);
  });

  it("lib's feature folders import each other without cycles", () => {
    const edges = new Map<string, Set<string>>();
    for (const f of libFiles) {
      const from = featureOf(path.relative(root, f));
      for (const t of importsOf(f)) {
        if (!t.startsWith("lib/")) continue;
        const to = featureOf(t);
        if (to === from || to === "lib/generated" || to.endsWith(".ts")) continue;
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from)!.add(to);
      }
    }
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const visit = (n: string) => {
      state.set(n, "open");
      stack.push(n);
      for (const m of edges.get(n) ?? []) {
        if (state.get(m) === "open") cycles.push([...stack.slice(stack.indexOf(m)), m].join(" -> "));
        else if (!state.has(m)) visit(m);
      }
      stack.pop();
      state.set(n, "done");
    };
    for (const n of edges.keys()) if (!state.has(n)) visit(n);
    expect(cycles).toEqual([]);
  });

  it("names an instrument only in its template (lib/rubrics/templates) and lib/demo", () => {
    const hits = instrumentNameHits();
    const allowed = new Set(Object.keys(COMPATIBILITY_SHIMS));
    expect(hits.filter((h) => !allowed.has(h.split(":")[0]))).toEqual([]);
  });

  it("allows no file that no longer names an instrument (tighten the lists)", () => {
    const named = new Set(instrumentNameHits().map((h) => h.split(":")[0]));
    const stale = Object.keys(COMPATIBILITY_SHIMS).filter((f) => !named.has(f));
    expect(stale).toEqual([]);
  });
});

/**
 * An instrument's name in code: the rubric document is the one source of truth, so code reads a
 * document's properties, never which instrument it is. Stored data keeps the keys the templates
 * define (Grade.rubric "SCORE"); code compares them nowhere.
 */
const INSTRUMENT_NAME = /S\.C\.O\.R\.E\.|SAFE-LLM|SAFE_LLM|["'`]SCORE["'`]|\bSCORE\s*:/;

/**
 * Where instruments are defined, or data written with them: the templates, the demo study, Prisma's
 * generated client (from the schema), and the API document and client generated from the contracts
 * (which this test checks at their source).
 */
const INSTRUMENT_HOMES = ["lib/rubrics/templates/", "lib/demo/", "lib/generated/", "lib/api-client/openapi.json", "lib/api-client/schema.d.ts"];

/** Compatibility with what was stored before rubrics were documents: each file, and why it must name an instrument. */
const COMPATIBILITY_SHIMS: Record<string, string> = {
  "lib/exports/archive-rubrics.ts": "archives written before rubrics were data name the two published rubrics by key, each standing for its template",
};

function textFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (name === "node_modules" || name.startsWith(".next")) continue;
    if (statSync(p).isDirectory()) out.push(...textFiles(p));
    else if (/\.(ts|tsx|js|mjs|cjs|json|md|css|sql|sh)$/.test(name)) out.push(p);
  }
  return out;
}

/** "file:line" for each line of app, components, lib and scripts that names an instrument outside its homes. */
function instrumentNameHits(): string[] {
  return ["app", "components", "lib", "scripts"]
    .flatMap((d) => textFiles(path.join(root, d)))
    .map((f) => path.relative(root, f).split(path.sep).join("/"))
    .filter((f) => !INSTRUMENT_HOMES.some((home) => f.startsWith(home)))
    .flatMap((f) =>
      readFileSync(path.join(root, f), "utf8")
        .split("\n")
        .flatMap((line, i) => (INSTRUMENT_NAME.test(line) ? [`${f}:${i + 1}: ${line.trim().slice(0, 120)}`] : [])),
    );
}

