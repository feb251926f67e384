import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * The package imports its .wasm the way bundlers do, which Node cannot; so we
 * instantiate the module ourselves and hand it to the wasm-bindgen glue.
 */
async function loadSchemaEngine() {
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve("@prisma/schema-engine-wasm"));
  const glue = (await import("@prisma/schema-engine-wasm/schema_engine_bg")) as unknown as Record<string, unknown> & {
    __wbg_set_wasm(exports: WebAssembly.Exports): void;
    SchemaEngine: typeof import("@prisma/schema-engine-wasm").SchemaEngine;
  };
  const bytes = await readFile(path.join(dir, "schema_engine_bg.wasm"));
  const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": glue as WebAssembly.ModuleImports });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return glue.SchemaEngine;
}

/**
 * SQL taking a database from `fromSchema` (null = empty) to `toSchema`, both
 * Prisma schema texts. The wasm engine opens a connection (any PostgreSQL will
 * do; nothing is written) even for a schema-to-schema diff.
 */
export async function diffSchemas(fromSchema: string | null, toSchema: string, connectionString?: string): Promise<string> {
  const SchemaEngine = await loadSchemaEngine();
  const adapter = bindMigrationAwareSqlAdapterFactory(
    new PrismaPg({ connectionString: connectionString ?? process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" }),
  );
  const engine = await SchemaEngine.new({ datamodels: [["schema.prisma", toSchema]] }, () => {}, adapter);
  try {
    const result = await engine.diff({
      from: fromSchema === null ? { tag: "empty" } : { tag: "schemaDatamodel", files: [{ path: "from.prisma", content: fromSchema }] },
      to: { tag: "schemaDatamodel", files: [{ path: "schema.prisma", content: toSchema }] },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    return result.stdout ?? "";
  } finally {
    engine.free();
  }
}
