import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";

/**
 * One Prisma client per process, created on first use so that whoever starts
 * the process (the start script, a test file) can set DATABASE_URL first.
 */
const globalForDb = globalThis as unknown as { clingradeDb?: PrismaClient; clingradeDbUrl?: string };

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new Error("DATABASE_URL is not set. Start the app with `npm start` (it starts the embedded database) or set DATABASE_URL.");
  }
  return url;
}

export function getDb(): PrismaClient {
  const url = databaseUrl();
  if (!globalForDb.clingradeDb || globalForDb.clingradeDbUrl !== url) {
    const adapter = new PrismaPg({ connectionString: url, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
    globalForDb.clingradeDb = new PrismaClient({ adapter });
    globalForDb.clingradeDbUrl = url;
  }
  return globalForDb.clingradeDb;
}

export async function disconnectDb(): Promise<void> {
  await globalForDb.clingradeDb?.$disconnect();
  globalForDb.clingradeDb = undefined;
  globalForDb.clingradeDbUrl = undefined;
}

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
