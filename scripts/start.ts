/**
 * Starts Clingrade: the database (DATABASE_URL, or the embedded PostgreSQL),
 * migrations, optionally the demo seed, then the Next.js server. On SIGINT or
 * SIGTERM it drains: new connections are refused, requests in flight finish
 * (for at most SHUTDOWN_TIMEOUT_MS, default 10 s; /api/health/ready answers
 * 503 meanwhile), then the database pool and the embedded database close.
 *
 *   node .next/standalone/start.mjs start [--seed-demo]   production server (`npm start`, after `npm run build`)
 *   tsx scripts/start.ts start [--seed-demo]   the same from the sources (benchmarks)
 *   tsx scripts/start.ts dev                   development server
 *
 * The standalone folder (scripts/build-standalone.ts) holds this script
 * bundled, the build and the packages it needs: it runs without the checkout.
 *
 * `npm start` runs the production server with a young generation of 32 MB
 * semi-spaces (V8's default is 16 MB; the flag only works at launch, so it is
 * in package.json). A page render allocates a few MB that die with it: with
 * the default, scavenges were 8% of the server's CPU under 50 graders; with
 * the larger nursery a page cost 5-8% less CPU (paired runs) for about 20 MB
 * more resident memory (bench/README.md, "grading").
 */
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { appDir, distDirName } from "@/lib/build/app-dir";
import { checkSignInConfig, SsoConfigError } from "@/lib/auth/sso-config";
import { resolveAuthSecret } from "@/lib/config/auth-secret";
import { displayUrl, listenAddress, listenProblem } from "@/lib/config/listen";
import { dataDir, prepareDatabase } from "@/lib/db/bootstrap";
import { StartupError } from "@/lib/db/embedded";
import { mailConfigFromEnv, MailConfigError, type MailConfig } from "@/lib/mail/config";
import { peerAddressStamper } from "@/lib/log/client-address";
import { dropOutputErrors } from "@/lib/log/output";
import { drainer, shutdownTimeoutMs } from "@/lib/server/graceful";
import { startDraining } from "@/lib/server/lifecycle";
import { refuseUnsupportedMethod } from "@/lib/server/methods";

const mode = process.argv[2] === "dev" ? "dev" : "start";
const seedDemo = process.argv.includes("--seed-demo");
/** `npm run demo`: without SMTP settings, catch the demo's mail in-process (tests and benchmarks seed without it, mail off). */
const demoMail = process.argv.includes("--demo-mail");
const say = (m: string) => console.log(`[clingrade] ${m}`);

async function main() {
  dropOutputErrors();
  const address = listenAddress();
  const { host, port } = address;
  const stampPeerAddress = peerAddressStamper();
  const problem = await listenProblem(address);
  if (problem === "EADDRINUSE") {
    throw new StartupError(`Port ${port} is already in use. Stop what is using it or start with another port: PORT=3001 npm ${mode === "dev" ? "run dev" : seedDemo ? "run demo" : "start"}`);
  }
  if (problem) throw new StartupError(`Cannot listen on ${host} port ${port} (${problem}). Set HOST to an address of this machine: 127.0.0.1 (the default) or 0.0.0.0.`);
  let shutdownTimeout: number;
  try {
    shutdownTimeout = shutdownTimeoutMs();
  } catch (err) {
    throw new StartupError((err as Error).message);
  }
  try {
    const signIn = checkSignInConfig();
    if (signIn.sso) say(`Single sign-on with ${signIn.sso.issuer}${signIn.passwords ? "" : " only (AUTH_PASSWORDS=off)"}.`);
  } catch (err) {
    if (err instanceof SsoConfigError) throw new StartupError(err.message);
    throw err;
  }
  let mailConfig: MailConfig | null;
  try {
    mailConfig = mailConfigFromEnv();
  } catch (err) {
    if (err instanceof MailConfigError) throw new StartupError(err.message);
    throw err;
  }
  const authSecret = await resolveAuthSecret({ allowGenerated: mode === "dev" || seedDemo, dataDir: dataDir(), warn: (m) => say(`warning: ${m}`) });
  const db = await prepareDatabase({ log: say });
  say(db.mode === "embedded" ? `Using the embedded PostgreSQL (data in ${dataDir()}).` : "Using the PostgreSQL in DATABASE_URL.");
  // Said after the secret and the database: a refusal to start is then the first line printed.
  // The demo without SMTP settings catches its own mail, so invitations can be followed on the admin's mail page.
  let demoSmtp: { close: () => Promise<void> } | null = null;
  if (!mailConfig && demoMail) {
    const { startDemoSmtp } = await import("@/lib/mail/demo-smtp");
    const smtpPort = Number(process.env.CLINGRADE_DEMO_SMTP_PORT ?? 2525);
    const smtp = await startDemoSmtp(smtpPort).catch((err: Error) => {
      say(`warning: the demo's catch-all SMTP server cannot listen on 127.0.0.1:${smtpPort} (${err.message}); e-mail stays off. Set CLINGRADE_DEMO_SMTP_PORT to another port.`);
      return null;
    });
    if (smtp) {
      demoSmtp = smtp;
      Object.assign(process.env, { SMTP_URL: smtp.url, MAIL_FROM: "Clingrade demo <demo@clingrade.invalid>" });
      mailConfig = mailConfigFromEnv();
      say(`E-mail: a catch-all SMTP server for the demo on 127.0.0.1:${smtpPort}; sent messages are listed on the admin's mail page (Mail).`);
    }
  } else say(mailConfig ? "E-mail is on." : "E-mail is off (no SMTP settings): new graders get a first password shown once to the lead.");

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

  // Next runs in this process (not a child), so that a crash or SIGKILL of the
  // app leaves no orphaned web server holding the port; the embedded database it
  // may leave is adopted on the next start.
  Object.assign(process.env, {
    DATABASE_URL: db.url,
    AUTH_SECRET: authSecret,
    NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? `http://localhost:${port}`,
    NODE_ENV: mode === "dev" ? "development" : "production",
    NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? "1",
  });
  if (mode === "start") {
    try {
      applyBuiltConfig();
    } catch (err) {
      await stopDatabase();
      throw err;
    }
  }
  const { default: next } = await import("next");
  const app = next({ dev: mode === "dev", port, hostname: "localhost", dir: appDir() });
  const handle = app.getRequestHandler();
  try {
    await app.prepare();
  } catch (err) {
    await stopDatabase();
    const message = err instanceof Error ? err.message : String(err);
    if (/production build/.test(message)) throw new StartupError(NO_BUILD);
    throw err;
  }
  const server = http.createServer();
  const drain = drainer(server, startDraining);
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!drain.admit(req, res)) return;
    if (refuseUnsupportedMethod(req, res)) return;
    stampPeerAddress(req);
    void handle(req, res);
  });
  server.keepAliveTimeout = 65_000; // longer than a load balancer's idle timeout
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  // Judge runs are worked on by every instance: their state is in PostgreSQL and tasks are leased,
  // so instances behind one load balancer share the work and a restart loses none.
  // Embedding similarity runs (lib/embeddings) likewise: the same switch turns both off.
  let judgeWorker: { stop(graceMs?: number): Promise<void> } | null = null;
  let embeddingWorker: { stop(graceMs?: number): Promise<void> } | null = null;
  if (process.env.CLINGRADE_JUDGE_WORKER !== "off") {
    const { startJudgeWorker } = await import("@/lib/judges/runner/worker");
    judgeWorker = startJudgeWorker({ concurrency: Number(process.env.JUDGE_WORKER_CONCURRENCY ?? 4) || 4 });
    const { startEmbeddingWorker } = await import("@/lib/embeddings/worker");
    embeddingWorker = startEmbeddingWorker();
  }
  if (mode === "start") {
    // The grade import's thread waits ready (lib/workers/spare.ts): its bundle is part of the idle server, not of an upload.
    const { prestartJobWorkers } = await import("@/lib/workers/run");
    prestartJobWorkers();
  }
  // A safety screen's judge runs where it was started; this loop takes over a run whose instance stopped (its lease expired).
  let screenWorker: { stop(graceMs?: number): Promise<void> } | null = null;
  if (process.env.CLINGRADE_JUDGE_WORKER !== "off") {
    const { startScreenWorker } = await import("@/lib/screening/judge-run");
    screenWorker = startScreenWorker();
  }
  // Mail, like judge runs, is sent by every instance: the outbox is leased, reminders are deduplicated.
  let mailWorker: { stop(): Promise<void> } | null = null;
  if (mailConfig && process.env.CLINGRADE_MAIL_WORKER !== "off") {
    const { startMailWorker } = await import("@/lib/mail/worker");
    mailWorker = startMailWorker(mailConfig, { pollMs: Number(process.env.MAIL_POLL_MS ?? 3000) || 3000 });
  }
  say(`Clingrade is ready on ${displayUrl(address)} (listening on ${host}${host === "127.0.0.1" ? " only; HOST=0.0.0.0 accepts other machines" : ""})`);

  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    say(`${signal} received, shutting down: finishing the requests in flight (at most ${shutdownTimeout} ms) ...`);
    // Finish in-flight requests (grade submissions among them) before the database goes.
    // The judge worker stops claiming and finishes its sets meanwhile; one it cannot finish is taken over after its lease.
    const [{ cut }] = await Promise.all([drain.drain(shutdownTimeout), judgeWorker?.stop(shutdownTimeout), embeddingWorker?.stop(shutdownTimeout), screenWorker?.stop(shutdownTimeout), mailWorker?.stop()]);
    await demoSmtp?.close();
    if (cut > 0) say(`warning: ${cut} request(s) still running after SHUTDOWN_TIMEOUT_MS=${shutdownTimeout} were cut.`);
    else say("Every request in flight was answered.");
    await app.close?.();
    const { disconnectDb } = await import("@/lib/db/client");
    await disconnectDb().catch(() => {});
    await stopDatabase();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

const NO_BUILD = "There is no production build yet. Run `npm run build` first (or `npm run demo`, which builds).";

/**
 * Serves with the configuration the build recorded, as Next's own standalone
 * server does: the standalone folder has no next.config.ts, and reading the
 * recorded one from the checkout too keeps both ways of starting alike.
 */
function applyBuiltConfig(): void {
  const file = path.join(appDir(), distDirName(), "required-server-files.json");
  if (!existsSync(file)) throw new StartupError(NO_BUILD);
  const { config } = JSON.parse(readFileSync(file, "utf8")) as { config: unknown };
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);
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
