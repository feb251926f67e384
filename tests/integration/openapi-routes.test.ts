import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { GET as openapiJson } from "@/app/api/v1/openapi.json/route";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { OPERATION_IDS } from "@/lib/openapi/operation-ids";

const API_ROOT = path.resolve("app/api/v1");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
/** The document does not describe itself. */
const SELF = "/api/v1/openapi.json";

/** Every route handler under app/api/v1, as OpenAPI path + method ("[id]" folders become "{id}"). */
async function routeHandlers(): Promise<string[]> {
  const files = (await readdir(API_ROOT, { recursive: true })).filter((f) => path.basename(f) === "route.ts");
  const found: string[] = [];
  for (const file of files) {
    const segments = path.dirname(file) === "." ? [] : path.dirname(file).split(path.sep);
    const urlPath = ["/api/v1", ...segments.filter((s) => !/^\(.*\)$/.test(s)).map((s) => s.replace(/^\[(\w+)\]$/, "{$1}"))].join("/");
    const source = await readFile(path.join(API_ROOT, file), "utf8");
    for (const method of METHODS) {
      const exported = new RegExp(`export\\s+(const\\s+${method}\\b|(async\\s+)?function\\s+${method}\\b|\\{[^}]*\\b${method}\\b[^}]*\\})`);
      if (exported.test(source)) found.push(`${method.toLowerCase()} ${urlPath}`);
    }
  }
  return found.sort();
}

function documented(doc: ReturnType<typeof buildOpenApiDocument>): string[] {
  return Object.entries(doc.paths ?? {})
    .flatMap(([p, item]) => Object.keys(item as object).filter((k) => METHODS.some((m) => m.toLowerCase() === k)).map((m) => `${m} ${p}`))
    .sort();
}

describe("the OpenAPI document", () => {
  it("documents every route handler under app/api/v1, and nothing that does not exist", async () => {
    const routes = (await routeHandlers()).filter((r) => !r.endsWith(` ${SELF}`));
    // The walk itself must find the study endpoints, or this test proves nothing.
    expect(routes).toEqual(
      expect.arrayContaining([
        "get /api/v1/studies",
        "post /api/v1/studies",
        "get /api/v1/studies/{id}",
        "patch /api/v1/studies/{id}",
        "get /api/v1/studies/{id}/items",
        "get /api/v1/studies/{id}/graders",
        "post /api/v1/studies/{id}/graders",
        "delete /api/v1/studies/{id}/graders/{userId}",
      ]),
    );
    const doc = buildOpenApiDocument();
    expect(documented(doc)).toEqual(routes);
  });

  it("names every operation (a unique operationId, what generated clients call) and carries a license", () => {
    const doc = buildOpenApiDocument();
    const ids = Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item as Record<string, { operationId?: string }>).map((op) => op.operationId));
    expect(ids.length).toBeGreaterThan(40);
    expect(ids.filter((id) => !id || !/^[a-z][A-Za-z]+$/.test(id)), "operations without a camelCase operationId").toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    const operations = documented(doc);
    expect(Object.keys(OPERATION_IDS).filter((k) => !operations.includes(k)), "names of operations that do not exist").toEqual([]);
    expect(doc.info.license?.name).toBeTruthy();
    // Each tag an operation uses is declared with a description (Redocly's tag-description rule).
    const used = new Set(Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item as Record<string, { tags?: string[] }>).flatMap((op) => op.tags ?? [])));
    expect([...used].filter((t) => !doc.tags?.some((d) => d.name === t && d.description))).toEqual([]);
  });

  it("documents the import slots: a route that takes one answers 429 (and 409 for a study's) with Retry-After, and 413", async () => {
    const doc = buildOpenApiDocument();
    const files = (await readdir(API_ROOT, { recursive: true })).filter((f) => path.basename(f) === "route.ts");
    const slotted: { path: string; perStudy: boolean }[] = [];
    for (const file of files) {
      const source = await readFile(path.join(API_ROOT, file), "utf8");
      const route = source.includes("withImportSlot(") ? source : null;
      // Routes that hand the slot to a request module (the grade import) say so through what they import.
      const viaModule = /importGradesFromRequest/.test(source);
      if (!route && !viaModule) continue;
      const segments = path.dirname(file).split(path.sep);
      slotted.push({ path: ["/api/v1", ...segments.map((s) => s.replace(/^\[(\w+)\]$/, "{$1}"))].join("/"), perStudy: !/withImportSlot\(null/.test(source) });
    }
    expect(slotted.map((s) => s.path).sort()).toEqual(["/api/v1/studies/{id}/grade-imports", "/api/v1/studies/{id}/import", "/api/v1/study-archives"]);
    for (const s of slotted) {
      const responses = (doc.paths?.[s.path] as { post: { responses: Record<string, { headers?: Record<string, unknown>; description: string }> } }).post.responses;
      expect(responses["429"]?.headers?.["Retry-After"], `${s.path} 429`).toBeTruthy();
      expect(responses["413"]?.description, `${s.path} 413`).toMatch(/IMPORT_WORKER_HEAP_MB/);
      if (s.perStudy) expect(responses["409"]?.headers?.["Retry-After"], `${s.path} 409`).toBeTruthy();
    }
  });

  it("names the path parameters of each templated path", () => {
    const doc = buildOpenApiDocument();
    for (const [p, item] of Object.entries(doc.paths ?? {})) {
      const names = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(item as Record<string, { parameters?: { name: string; in: string }[] }>)) {
        const inPath = (op.parameters ?? []).filter((x) => x.in === "path").map((x) => x.name);
        expect(inPath.sort(), `${method} ${p}`).toEqual([...names].sort());
      }
    }
  });

  it("is served at /api/v1/openapi.json with the study schemas", async () => {
    const res = openapiJson();
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/v1/studies/{id}/graders/{userId}"]));
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["CreateStudy", "UpdateStudy", "AddGrader", "StudyDetail", "ItemPage", "GraderPage"]));
  });

  it("builds whatever was imported first (next build loads pages that import the settings before the registry)", async () => {
    // A fresh process, so zod has not been extended by anything yet.
    const script = [
      'await import("@/lib/studies/settings");',
      'await import("@/lib/graders/schema");',
      'const { buildOpenApiDocument } = await import("@/lib/openapi/document");',
      "console.log(Object.keys(buildOpenApiDocument().components.schemas).join(','));",
    ].join("\n");
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "--eval", script], { cwd: path.resolve(".") });
    expect(stdout.trim().split(",")).toEqual(expect.arrayContaining(["CreateStudy", "UpdateStudy", "AddGrader"]));
  });
});
