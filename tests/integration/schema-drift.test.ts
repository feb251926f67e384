import { readFile } from "node:fs/promises";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { diffSchemas } from "@/lib/db/schema-diff";
import { createMigratedDatabase } from "./helpers/db";

/**
 * Fails when prisma/schema.prisma and prisma/migrations drift apart: a database
 * built from the migrations must have the same tables, columns, enums, indexes
 * and foreign keys as one built straight from the schema by Prisma's engine.
 * (CHECK constraints and triggers are hand-written extras of the migrations, and
 * so are the indexes on expressions below, which Prisma's schema cannot state:
 * they must be in the migrations' database, and are the only index allowed to
 * be there alone.)
 */
const EXPRESSION_INDEXES = [{ tablename: "Specialty", indexname: "Specialty_name_lower_key", indexdef: 'CREATE UNIQUE INDEX "Specialty_name_lower_key" ON public."Specialty" USING btree (lower(name))' }];
const CATALOG_QUERIES = {
  columns: `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default
            FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
            ORDER BY 1, 2`,
  enums: `SELECT t.typname, array_agg(e.enumlabel ORDER BY e.enumsortorder)::text AS labels
          FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname ORDER BY 1`,
  indexes: `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY 1, 2`,
  foreignKeys: `SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def
                FROM pg_constraint WHERE contype IN ('f', 'u', 'p') AND connamespace = 'public'::regnamespace
                AND conrelid::regclass::text <> '"_prisma_migrations"' AND conrelid::regclass::text <> '_prisma_migrations' ORDER BY 1, 2`,
};

async function catalog(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const out: Record<string, unknown[]> = {};
    for (const [k, q] of Object.entries(CATALOG_QUERIES)) out[k] = (await c.query(q)).rows;
    return out;
  } finally {
    await c.end();
  }
}

const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const d of drops) await d();
});

describe("schema drift", () => {
  it("migrations produce exactly what schema.prisma describes", async () => {
    const fromMigrations = await createMigratedDatabase();
    drops.push(fromMigrations.drop);
    const fromSchema = await createMigratedDatabase();
    drops.push(fromSchema.drop);

    const schema = await readFile("prisma/schema.prisma", "utf8");
    const sql = await diffSchemas(null, schema, fromSchema.url);
    const c = new pg.Client({ connectionString: fromSchema.url });
    await c.connect();
    await c.query(`DROP SCHEMA public CASCADE; CREATE SCHEMA public; DROP FUNCTION IF EXISTS audit_event_append_only`);
    await c.query(sql);
    await c.end();

    const [a, b] = await Promise.all([catalog(fromMigrations.url), catalog(fromSchema.url)]);
    expect(a.columns.length).toBeGreaterThan(50);
    const isExpressionIndex = (i: unknown) => EXPRESSION_INDEXES.some((x) => x.indexname === (i as { indexname: string }).indexname);
    expect(a.indexes.filter(isExpressionIndex)).toEqual(EXPRESSION_INDEXES);
    expect({ ...a, indexes: a.indexes.filter((i) => !isExpressionIndex(i)) }).toEqual(b);
  });
});
