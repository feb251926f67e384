import { defineConfig } from "prisma/config";

// Prisma's CLI is used only for `generate` here: migrations are applied by
// lib/db/migrate.ts, since the native migrate engine cannot be downloaded.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/unused" },
});
