import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

/**
 * compose.yaml and the Dockerfile name environment variables and routes of the
 * app; nothing else ties them to the code, so a rename would leave the recipe
 * quietly wrong (an ignored variable, a healthcheck that always fails).
 */
const root = path.resolve(import.meta.dirname, "../../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((f) => !f.includes(`${path.sep}generated${path.sep}`));
}
const code = [...sources("lib"), ...sources("scripts"), ...sources("app"), path.join(root, "proxy.ts")].map((f) => readFileSync(f, "utf8")).join("\n");

/** Read by the app: as env.NAME / process.env.NAME, or as a quoted name (env[name] lookups such as lib/auth/sso-config.ts). */
function appReads(name: string): boolean {
  return new RegExp(`env\\.${name}\\b|["'\`]${name}["'\`]`).test(code);
}

/** The route file a path like /api/health/ready is served by. */
const routeFile = (url: string) => path.join(root, "app", url, "route.ts");

interface Service {
  image?: string;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
  restart?: string;
  volumes?: string[];
}
const compose = parse(read("compose.yaml")) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const { app, db } = compose.services;
const dockerfile = read("Dockerfile");

describe("compose.yaml", () => {
  it("sets only variables the app reads", () => {
    const names = Object.keys(app.environment ?? {});
    expect(names).toContain("DATABASE_URL");
    expect(names.filter((n) => !appReads(n))).toEqual([]);
  });

  it("takes secrets from the environment, never from the file", () => {
    const env = app.environment!;
    expect(env.AUTH_SECRET).toMatch(/^\$\{AUTH_SECRET:\?/);
    expect(env.DATABASE_URL).toMatch(/^postgresql:\/\/clingrade:\$\{POSTGRES_PASSWORD:\?[^}]*\}@db:5432\/clingrade$/);
    expect(db.environment!.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    for (const name of ["METRICS_TOKEN", "OIDC_CLIENT_SECRET", "CLINGRADE_SECRET_KEY"]) expect(env[name]).toBe(`\${${name}:-}`);
  });

  it("checks readiness on a real route and starts the app after a healthy database", () => {
    const url = /http:\/\/127\.0\.0\.1:3000(\/api\/[a-z/]+)/.exec(app.healthcheck!.test.join(" "))?.[1];
    expect(url).toBe("/api/health/ready");
    expect(existsSync(routeFile(url!))).toBe(true);
    expect(db.healthcheck!.test).toContain("pg_isready");
    expect(app.depends_on).toEqual({ db: { condition: "service_healthy" } });
    expect(db.volumes).toEqual(["pgdata:/var/lib/postgresql/data"]);
    expect(compose.volumes).toHaveProperty("pgdata");
    expect([app.restart, db.restart]).toEqual(["unless-stopped", "unless-stopped"]);
  });

  it("lets the drain finish before the container is killed", () => {
    const drainMs = Number(app.environment!.SHUTDOWN_TIMEOUT_MS);
    const grace = /^(\d+)s$/.exec(app.stop_grace_period ?? "");
    expect(drainMs).toBeGreaterThan(0);
    expect(Number(grace?.[1]) * 1000).toBeGreaterThan(drainMs);
  });

  it("runs the PostgreSQL major that the image's pg_dump can back up", () => {
    // The runtime image installs Debian 12's postgresql-client, which is 15.
    expect(dockerfile).toMatch(/bookworm/);
    expect(db.image).toBe("postgres:15");
  });
});

describe("Dockerfile", () => {
  it("checks its health on a real route", () => {
    const healthcheck = dockerfile.slice(dockerfile.indexOf("HEALTHCHECK"));
    const url = /\/api\/[a-z/]+/.exec(healthcheck)?.[0];
    expect(url).toBeDefined();
    expect(existsSync(routeFile(url!))).toBe(true);
  });

  it("runs the standalone folder as `npm start` does", () => {
    const { scripts } = JSON.parse(read("package.json")) as { scripts: Record<string, string> };
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]) as string[];
    // npm start: node <flags> .next/standalone/start.mjs start; the image's working folder is that standalone folder.
    expect(scripts.start.split(/\s+/).map((w) => w.replace(/^\.next\/standalone\//, ""))).toEqual(cmd);
    expect(dockerfile).toMatch(/^COPY --from=build --chown=node:node \/app\/\.next\/standalone \.\/$/m);
    expect(dockerfile).toMatch(/^RUN npm run build$/m);
    expect(read("scripts/build-standalone.ts")).toMatch(/start: "scripts\/start\.ts", admin: "scripts\/admin\.ts"/);
  });

  it("sets only variables the app reads", () => {
    const names = [...dockerfile.matchAll(/^ENV (.*)$/gm)].flatMap((m) => [...m[1].matchAll(/([A-Z_]+)=/g)].map((n) => n[1]));
    expect(names).toContain("SHUTDOWN_TIMEOUT_MS");
    expect(names.filter((n) => !appReads(n))).toEqual([]);
  });
});

describe("DEPLOY.md", () => {
  const guide = read("DEPLOY.md");
  // Not the app's: the postgres image's variable, and a shell variable of an example.
  const notTheApp = new Set(["POSTGRES_PASSWORD", "ADMIN_PASSWORD"]);

  it("names only variables the app reads", () => {
    const names = [...new Set(guide.match(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g))].filter((n) => !notTheApp.has(n));
    expect(names).toContain("TRUSTED_PROXIES");
    expect(names.filter((n) => !appReads(n))).toEqual([]);
  });

  it("names only admin commands that exist", () => {
    const admin = read("scripts/admin.ts") + read("lib/users/admin-cli.ts");
    // `npm run admin -- X` in a checkout, `node admin.mjs X` in the image.
    const commands = [...new Set([...guide.matchAll(/(?:npm run admin --|node admin\.mjs) ([a-z-]+)/g)].map((m) => m[1]))];
    expect(commands).toContain("unlink-sso");
    expect(commands.filter((c) => !admin.includes(`"${c}"`))).toEqual([]);
  });

  it("names only health routes that exist", () => {
    const urls = [...new Set(guide.match(/\/api\/health[a-z/]*/g))];
    expect(urls.length).toBeGreaterThan(1);
    expect(urls.filter((u) => !existsSync(routeFile(u)))).toEqual([]);
  });
});
