/**
 * The database's URL, apart from the Prisma client (./client.ts), so code that
 * holds a connection of its own (the imports' worker threads) does not load
 * Prisma's runtime with it.
 */
export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new Error("DATABASE_URL is not set. Start the app with `npm start` (it starts the embedded database) or set DATABASE_URL.");
  }
  return url;
}
