/**
 * Starts Clingrade: the database (DATABASE_URL, or the embedded PostgreSQL),
 * migrations, optionally the demo seed, then the Next.js server. On SIGINT or
 * SIGTERM it stops the server and then the embedded database.
 *
 *   tsx scripts/start.ts start [--seed-demo]   production server (after `next build`)
 *   tsx scripts/start.ts dev                   development server
 */
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { resolveAuthSecret } from "@/lib/config/auth-secret";
import { dataDir, prepareDatabase } from "@/lib/db/bootstrap";
import { StartupError } from "@/lib/db/embedded";

const mode = process.argv[2] === "dev" ? "dev" : "start";
const seedDemo = process.argv.includes("--seed-demo");
const port = Number(process.env.PORT ?? 3000);
const say = (m: string) => console.log(`[clingrade] ${m}`);

function portIsFree(p: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(p, () => server.close(() => resolve(true)));
  });
}

async function main() {
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new StartupError(`PORT=${process.env.PORT} is not a valid port number.`);
  if (!(await portIsFree(port))) {
    throw new StartupError(`Port ${port} is already in use. Stop what is using it or start with another port: PORT=3001 npm ${mode === "dev" ? "run dev" : seedDemo ? "run demo" : "start"}`);
  }
  const authSecret = await resolveAuthSecret({ allowGenerated: mode === "dev" || seedDemo, dataDir: dataDir(), warn: (m) => say(`warning: ${m}`) });
  const db = await prepareDatabase({ log: say });
  say(db.mode === "embedded" ? `Using the embedded PostgreSQL (data in ${dataDir()}).` : "Using the PostgreSQL in DATABASE_URL.");

  let stopping = false;
  const stopDatabase = async () => {
    if (db.embedded) {
      say("Stopping the embedded PostgreSQL ...");
      await db.embedded.stop();
    }
  };

  try {
    if (seedDemo) {
      process.env.DATABASE_URL = db.url;
      const { seedDemo: seed, printDemoCredentials } = await import("@/lib/demo/seed");
      const result = await seed();
      say(result.created ? "Seeded the demo study." : "The demo study is already there; nothing was added.");
      printDemoCredentials(say);
    }
  } catch (err) {
    await stopDatabase();
    throw err;
  }

  const nextBin = path.resolve("node_modules/next/dist/bin/next");
  const child = spawn(process.execPath, [nextBin, mode, "-p", String(port)], {
    stdio: "inherit",
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      AUTH_SECRET: authSecret,
      NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? `http://localhost:${port}`,
      NODE_ENV: mode === "dev" ? "development" : "production",
    },
  });
  say(`Clingrade is starting on http://localhost:${port}`);

  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    say(`${signal} received, shutting down ...`);
    child.kill(signal);
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  child.on("exit", async (code, signal) => {
    await stopDatabase();
    process.exit(stopping ? 0 : (code ?? (signal ? 1 : 0)));
  });
}

main().catch((err: unknown) => {
  if (err instanceof StartupError) {
    console.error(`[clingrade] error: ${err.message}`);
  } else {
    console.error(`[clingrade] error: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
    if (process.env.DEBUG) console.error(err);
  }
  process.exit(1);
});
