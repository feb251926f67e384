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
});
