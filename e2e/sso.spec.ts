/**
 * Single sign-on, end to end: a second app server (its own database, seeded
 * with the demo) configured for a real OpenID provider started here
 * (e2e/oidc-idp.ts), with AUTH_PASSWORDS=off. Only this file pays for them.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { adminCli, demo, e2eDatabaseUrl } from "./fixtures";
import { startIdp, type TestIdp } from "./oidc-idp";

const mainPort = Number(process.env.E2E_PORT ?? "3100");
const port = process.env.E2E_SSO_PORT ?? String(mainPort + 50);
const app = `http://127.0.0.1:${port}`;
const CLIENT = { id: "clingrade-e2e", secret: "e2e-client-secret-0123456789" };

const grader = demo.graders[0];
const OUTSIDER = "grader@other-hospital.example";
const ACCOUNTS = {
  grader: { email: grader.email, email_verified: true, name: grader.name },
  unverified: { email: demo.graders[1].email, email_verified: false, name: demo.graders[1].name },
  stranger: { email: "stranger@demo.clingrade.org", email_verified: true, name: "Stranger" },
  outsider: { email: OUTSIDER, email_verified: true, name: "Outsider" },
  // grader3's own identity, but the tokens are wrong; at the end grader3 signs in to show the account itself was fine.
  expired: { email: demo.graders[2].email, email_verified: true, name: demo.graders[2].name, tamper: "expired" as const },
  forged: { email: demo.graders[2].email, email_verified: true, name: demo.graders[2].name, tamper: "foreign-issuer" as const },
  grader3: { email: demo.graders[2].email, email_verified: true, name: demo.graders[2].name },
};

let idp: TestIdp;
let server: ChildProcess | undefined;
let db: pg.Client;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  idp = await startIdp({ clientId: CLIENT.id, clientSecret: CLIENT.secret, redirectUri: `${app}/api/auth/callback/oidc`, accounts: ACCOUNTS });
  server = spawn(process.execPath, ["--import", "tsx", "e2e/serve.ts"], {
    env: {
      ...process.env,
      E2E_PORT: port,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: CLIENT.id,
      OIDC_CLIENT_SECRET: CLIENT.secret,
      OIDC_NAME: "Test IdP",
      OIDC_ALLOWED_DOMAINS: "demo.clingrade.org",
      AUTH_PASSWORDS: "off",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + 280_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the SSO app server exited with ${server.exitCode}`);
    const ok = await fetch(`${app}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error("the SSO app server did not start");
    await new Promise((r) => setTimeout(r, 500));
  }
  db = new pg.Client({ connectionString: e2eDatabaseUrl(port) });
  await db.connect();
  // An invited account at a domain single sign-on does not allow: only the domain refuses it.
  const created = await adminCli(["create-user", "--email", OUTSIDER, "--name", "Outsider", "--role", "GRADER", "--password", "outsider-pass-123"], port);
  expect(created.code, created.stderr).toBe(0);
});

test.afterAll(async () => {
  await db?.end();
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once("exit", r));
    server.kill("SIGTERM");
    await exited;
  }
  await idp?.close();
});

/** Clicks the SSO button, signs in at the provider as `login`, and waits to be back at the app. */
async function ssoSignIn(page: Page, login: keyof typeof ACCOUNTS) {
  await page.goto(`${app}/login`);
  await page.waitForLoadState("networkidle");
  await page.getByRole("button", { name: "Sign in with Test IdP" }).click();
  await page.waitForURL((u) => u.port !== port);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any-password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.waitForURL((u) => u.port === port && !u.pathname.startsWith("/api/auth"));
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, params);
  return Number(rows[0].n);
}
const identitiesOf = (email: string) => count(`"OidcIdentity" i JOIN "User" u ON u.id = i."userId" WHERE u.email = $1`, [email]);
const sessionsOf = (email: string) => count(`"AuthSession" s JOIN "User" u ON u.id = s."userId" WHERE u.email = $1`, [email]);

async function expectRefused(page: Page, message: RegExp) {
  await expect(page).toHaveURL(/\/login\?/);
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveText(message);
  expect((await page.request.get(`${app}/api/v1/me`)).status()).toBe(401);
}

test("an invited grader signs in with single sign-on, linked by verified email, into a revocable session", async ({ page, context }) => {
  await ssoSignIn(page, "grader");
  await expect(page).toHaveURL(`${app}/queue`);
  await expect(page.getByRole("heading", { name: "My grading queue" })).toBeVisible();
  const me = await page.request.get(`${app}/api/v1/me`);
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ email: grader.email, role: "GRADER" });
  expect(await identitiesOf(grader.email)).toBe(1);
  expect(await sessionsOf(grader.email)).toBe(1);
  const { rows } = await db.query(`SELECT action FROM "AuditEvent" WHERE action LIKE 'auth.sso.%' AND "entityId" = (SELECT id::text FROM "User" WHERE email = $1) ORDER BY id`, [grader.email]);
  expect(rows.map((r) => r.action)).toEqual(["auth.sso.link", "auth.sso.signin"]);
  await page.screenshot({ path: test.info().outputPath("sso-queue.png"), fullPage: true });

  // Sign-out revokes the server-side session: the old cookie is dead.
  const cookie = (await context.cookies(app)).find((c) => c.name === "next-auth.session-token");
  expect(cookie?.httpOnly).toBe(true);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${app}/login`);
  await context.addCookies([cookie!]);
  expect((await page.request.get(`${app}/api/v1/me`)).status()).toBe(401);
});

test("replaying the provider's answer signs nobody in", async ({ page }) => {
  let callback: string | undefined;
  page.on("request", (r) => {
    if (r.url().startsWith(`${app}/api/auth/callback/oidc`)) callback = r.url();
  });
  await ssoSignIn(page, "grader");
  await expect(page).toHaveURL(`${app}/queue`);
  const before = await sessionsOf(grader.email);
  await page.context().clearCookies();
  // The same code and state again (the provider's code is used up, and so are the browser's sign-in cookies).
  await page.goto(callback!);
  await expectRefused(page, /could not be verified/);
  expect(await sessionsOf(grader.email)).toBe(before);
});

test("an unverified email is refused: no link, no session", async ({ page }) => {
  await ssoSignIn(page, "unverified");
  await expectRefused(page, /has not verified your email address/);
  expect(await identitiesOf(demo.graders[1].email)).toBe(0);
  expect(await sessionsOf(demo.graders[1].email)).toBe(0);
});

test("an email nobody invited gets no account", async ({ page }) => {
  await ssoSignIn(page, "stranger");
  await expectRefused(page, /No Clingrade account is waiting for this email/);
  expect(await count(`"User" WHERE email = $1`, [ACCOUNTS.stranger.email])).toBe(0);
});

test("an invited account at a domain outside OIDC_ALLOWED_DOMAINS is refused", async ({ page }) => {
  await ssoSignIn(page, "outsider");
  await expectRefused(page, /email domain cannot sign in/);
  expect(await identitiesOf(OUTSIDER)).toBe(0);
  expect(await sessionsOf(OUTSIDER)).toBe(0);
});

test("an expired id token is refused", async ({ page }) => {
  await ssoSignIn(page, "expired");
  await expectRefused(page, /could not be verified/);
  expect(await identitiesOf(demo.graders[2].email)).toBe(0);
});

test("an id token naming another issuer is refused", async ({ page }) => {
  await ssoSignIn(page, "forged");
  await expectRefused(page, /could not be verified/);
  expect(await identitiesOf(demo.graders[2].email)).toBe(0);
});

test("a provider whose discovery document names another issuer is refused", async ({ page }) => {
  idp.lieAboutIssuer(true);
  try {
    await ssoSignIn(page, "grader3");
    await expectRefused(page, /identity provider Clingrade does not trust/);
  } finally {
    idp.lieAboutIssuer(false);
  }
  expect(await identitiesOf(demo.graders[2].email)).toBe(0);
  expect(await sessionsOf(demo.graders[2].email)).toBe(0);
  // The account itself was fine: with the right provider it signs in (afresh: the test providers share their sessions).
  await page.context().clearCookies();
  await ssoSignIn(page, "grader3");
  await expect(page).toHaveURL(`${app}/queue`);
  expect(await identitiesOf(demo.graders[2].email)).toBe(1);
});

test("AUTH_PASSWORDS=off: no password form, and the credentials endpoint refuses the right password", async ({ page }) => {
  await page.goto(`${app}/login`);
  await expect(page.getByRole("button", { name: "Sign in with Test IdP" })).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveCount(0);
  await expect(page.locator("input[type=password]")).toHaveCount(0);

  const { csrfToken } = (await (await page.request.get(`${app}/api/auth/csrf`)).json()) as { csrfToken: string };
  const res = await page.request.post(`${app}/api/auth/callback/credentials`, {
    form: { csrfToken, email: demo.lead.email, password: demo.lead.password, json: "true" },
    maxRedirects: 0,
  });
  expect(res.status()).toBeGreaterThanOrEqual(400);
  expect(res.status()).toBeLessThan(500);
  expect((await page.context().cookies(app)).some((c) => c.name.endsWith("next-auth.session-token"))).toBe(false);
  expect((await page.request.get(`${app}/api/v1/me`)).status()).toBe(401);
  expect(await sessionsOf(demo.lead.email)).toBe(0);
});
