/**
 * Prints the SQL that takes a database from one schema to another, offline,
 * with Prisma's schema engine compiled to WebAssembly (the native engine cannot
 * be downloaded here). Used to write a new migration:
 *
 *   npx tsx scripts/migration-diff.ts --from-empty > prisma/migrations/<ts>_<name>/migration.sql
 *   npx tsx scripts/migration-diff.ts --from-schema old.prisma > ...
 */
import { readFileSync } from "node:fs";
import { diffSchemas } from "../lib/db/schema-diff";

const args = process.argv.slice(2);
const fromIdx = args.indexOf("--from-schema");
const fromSchema = fromIdx >= 0 ? readFileSync(args[fromIdx + 1], "utf8") : null;
const toIdx = args.indexOf("--to-schema");
const toSchema = readFileSync(toIdx >= 0 ? args[toIdx + 1] : "prisma/schema.prisma", "utf8");

diffSchemas(fromSchema, toSchema).then(
  (sql) => process.stdout.write(sql),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
