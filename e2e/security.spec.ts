import { readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import pg from "pg";
import { adminCli, demo, e2eDatabaseUrl, signIn } from "./fixtures";

/**
 * Every page under app/ is opened as anonymous, a grader, the lead of another
 * study, the demo study's lead and an admin. A page not listed in AUDIENCE fails
 * the suite, so a new page needs a decision (and a guard).
 */
type Audience = "public" | "grader" | "lead" | "study" | "admin" | "home" | "grader-pairwise";
const AUDIENCE: Record<string, Audience> = {
  "/": "home",
  "/login": "public",
  "/queue": "grader",
  "/calibration": "grader",
  "/grade/[assignmentId]": "grader",
  "/studies": "lead",
  "/studies/new": "lead",
  "/api-docs": "lead",
  "/admin/users": "admin",
  "/admin/mail": "admin",
  "/planner": "lead",
  "/invitation": "public",
  "/unsubscribe": "public",
  // The demo has no pairwise study: the grader's scoring assignment is not a comparison (404).
  "/grade/comparisons/[assignmentId]": "grader-pairwise",
};
const isStudyPage = (route: string) => route.startsWith("/studies/[id]");

function pages(dir: string, base = ""): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name === "api" || name.startsWith("_")) return [];
      const segment = name.startsWith("(") ? "" : `/${name}`; // route groups leave the URL
      return pages(p, base + segment);
    }
    return name === "page.tsx" ? [base || "/"] : [];
  });
}

async function contextFor(browser: Browser, user: { email: string; password: string } | null) {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (user) await signIn(page, user);
  await page.close();
  return context;
}

test.describe("page access by role", () => {
  test("every page answers each role as declared", async ({ browser }) => {
    test.setTimeout(180_000);
    const routes = pages(path.resolve("app"));
    const undeclared = routes.filter((r) => !(r in AUDIENCE) && !isStudyPage(r));
    expect(undeclared, "pages with no declared audience").toEqual([]);

    const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
    await db.connect();
    const study = (await db.query<{ id: string }>(`SELECT id FROM "Study" WHERE slug = 'demo-clinical-qa'`)).rows[0];
    const grader1 = (await db.query<{ id: string }>(`SELECT id FROM "User" WHERE email = $1`, [demo.graders[0].email])).rows[0];
    const mine = (await db.query<{ id: string }>(`SELECT id FROM "Assignment" WHERE "graderId" = $1 ORDER BY position LIMIT 1`, [grader1.id])).rows[0];
    const set = (await db.query<{ id: string }>(`SELECT id FROM "ResponseSet" WHERE "studyId" = $1 ORDER BY id LIMIT 1`, [study.id])).rows[0];
    await db.end();

    const otherLeadEmail = `other-lead-${Date.now()}@demo.clingrade.org`;
    expect((await adminCli(["create-user", "--email", otherLeadEmail, "--name", "Other Lead", "--role", "LEAD", "--password", "other-lead-pass-1"])).code).toBe(0);
    const ctx = {
      anonymous: await contextFor(browser, null),
      grader: await contextFor(browser, demo.graders[0]),
      otherGrader: await contextFor(browser, demo.graders[1]),
      otherLead: await contextFor(browser, { email: otherLeadEmail, password: "other-lead-pass-1" }),
      lead: await contextFor(browser, demo.lead),
      admin: await contextFor(browser, demo.admin),
    };
    const status = async (who: keyof typeof ctx, url: string) => {
      const r = await ctx[who].request.get(url, { maxRedirects: 0 });
      return { status: r.status(), location: r.headers()["location"] ?? "" };
    };
    const urlOf = (route: string) => route.replace("[id]", study.id).replace("[assignmentId]", mine.id).replace("[setId]", set.id);

    for (const route of routes) {
      const url = urlOf(route);
      const audience = isStudyPage(route) ? "study" : AUDIENCE[route];
      const anon = await status("anonymous", url);
      if (audience === "public") {
        expect(anon.status, `${route} anonymous`).toBe(200);
        continue;
      }
      expect([307, 303, 302], `${route} anonymous is sent to sign in`).toContain(anon.status);
      expect(anon.location, route).toContain("/login");
      if (audience === "home") continue;
      if (audience === "grader-pairwise") {
        expect((await status("grader", url)).status, `${route} grader, not a comparison`).toBe(404);
        expect((await status("lead", url)).status, `${route} lead`).toBe(403);
        expect((await status("admin", url)).status, `${route} admin`).toBe(403);
      } else if (audience === "grader") {
        expect((await status("grader", url)).status, `${route} grader`).toBe(200);
        expect((await status("lead", url)).status, `${route} lead`).toBe(403);
        expect((await status("admin", url)).status, `${route} admin`).toBe(403);
        if (route.includes("[assignmentId]")) expect((await status("otherGrader", url)).status, `${route} another grader`).toBe(404);
      } else if (audience === "admin") {
        expect((await status("admin", url)).status, `${route} admin`).toBe(200);
        expect((await status("lead", url)).status, `${route} lead`).toBe(403);
        expect((await status("grader", url)).status, `${route} grader`).toBe(403);
      } else {
        expect((await status("grader", url)).status, `${route} grader`).toBe(403);
        expect((await status("lead", url)).status, `${route} lead`).toBe(200);
        expect((await status("admin", url)).status, `${route} admin`).toBe(200);
        expect((await status("otherLead", url)).status, `${route} lead of another study`).toBe(audience === "study" ? 404 : 200);
      }
    }
    for (const c of Object.values(ctx)) await c.close();
  });
});

test.describe("blinding", () => {
  test("a grader crawling everything reachable never sees a model's name, version or id, nor other graders", async ({ page }) => {
    test.setTimeout(240_000);
    const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
    await db.connect();
    const models = (await db.query<{ id: string; name: string; version: string }>(`SELECT m.id, m.name, m.version FROM "LlmModel" m JOIN "Study" s ON s.id = m."studyId" WHERE s.slug = 'demo-clinical-qa'`)).rows;
    // An imported rater's name is the file's own label ("primary", "Reviewer1"), which markup also uses (text-primary): its id and address are checked.
    const others = (await db.query<{ id: string; name: string; email: string; external: boolean }>(`SELECT id, name, email, "externalStudyId" IS NOT NULL AS external FROM "User" WHERE email <> $1`, [demo.graders[0].email])).rows;
    await db.end();
    const forbidden = [
      ...models.flatMap((m) => [m.id, m.name, m.version]),
      "GPT",
      "Claude",
      "Llama",
      "Sonnet",
      ...others.flatMap((o) => [o.id, o.email, ...(o.external ? [] : [o.name])]),
    ].filter((w) => w.length >= 3);

    await signIn(page, demo.graders[0]);
    const seen = new Set<string>();
    const queue = ["/queue"];
    const bodies: { url: string; body: string }[] = [];
    while (queue.length && seen.size < 40) {
      const url = queue.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const res = await page.goto(url);
      bodies.push({ url, body: (await res?.text()) ?? "" });
      const links = await page.$$eval("a[href]", (as) => as.map((a) => (a as HTMLAnchorElement).getAttribute("href")!));
      for (const l of links) if (l.startsWith("/") && !l.startsWith("/api/auth") && !seen.has(l)) queue.push(l);
    }
    expect(seen.size).toBeGreaterThan(5);
    // the JSON the pages use, too
    const list = await page.request.get("/api/v1/me/assignments");
    bodies.push({ url: "/api/v1/me/assignments", body: await list.text() });
    for (const a of ((await list.json()) as { assignments: { id: string }[] }).assignments.slice(0, 10)) {
      const r = await page.request.get(`/api/v1/assignments/${a.id}`);
      bodies.push({ url: `/api/v1/assignments/${a.id}`, body: await r.text() });
    }
    for (const { url, body } of bodies) {
      for (const word of forbidden) expect(body.includes(word), `${url} contains "${word}"`).toBe(false);
    }
    test.info().annotations.push({ type: "crawl", description: `${bodies.length} bodies checked against ${forbidden.length} forbidden strings` });
  });
});

const scriptSrc = (csp: string | undefined) => (csp ?? "").split(";").map((d) => d.trim()).filter((d) => d.startsWith("script-src "));

test.describe("hardening", () => {
  test("security headers on pages and API", async ({ request }) => {
    // An upload route (which skips proxy.ts) gets next.config.ts's fixed policy; the rest the proxy's.
    for (const url of ["/login", "/api/health", "/no-such-page", "/api/v1/study-archives"]) {
      const h = (await request.get(url)).headers();
      expect(h["content-security-policy"], url).toContain("frame-ancestors 'none'");
      expect(h["content-security-policy"], url).not.toContain("unsafe-eval");
      expect(scriptSrc(h["content-security-policy"]), `${url}: one policy, no inline scripts`).toHaveLength(1);
      expect(scriptSrc(h["content-security-policy"])[0], url).not.toContain("unsafe-inline");
      expect(h["x-content-type-options"]).toBe("nosniff");
      expect(h["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(h["x-frame-options"]).toBe("DENY");
      if (!url.includes("study-archives")) expect(h["x-request-id"]).toMatch(/^[\w-]{8,}$/);
      expect(h["x-powered-by"]).toBeUndefined();
      // This server is plain http (NEXTAUTH_URL http://): no HSTS, even when a client claims https.
      expect(h["strict-transport-security"], url).toBeUndefined();
    }
    expect((await request.get("/login", { headers: { "x-forwarded-proto": "https" } })).headers()["strict-transport-security"]).toBeUndefined();
    const out = await adminCli(["create-token", "--email", demo.graders[0].email]);
    const auth = { authorization: `Bearer ${out.stdout.trim().split("\n").pop()}` };
    for (const url of ["/api/v1/me", "/api/v1/me/assignments"]) {
      const r = await request.get(url, { headers: auth });
      expect(r.status(), url).toBe(200);
      expect(r.headers()["cache-control"], url).toBe("no-store");
    }
  });

  test("login, 404, grading and dashboard pages: a nonce CSP without 'unsafe-inline' scripts, every script nonced, no violation", async ({ browser, request }) => {
    test.setTimeout(180_000);
    const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
    await db.connect();
    const pilot = (await db.query<{ id: string }>(`SELECT id FROM "Study" WHERE slug = 'demo-pilot-graded'`)).rows[0];
    await db.end();
    // The grader's queue (re-running the assignment adds nothing once it has run).
    const lead = await adminCli(["create-token", "--email", demo.lead.email]);
    const leadAuth = { authorization: `Bearer ${lead.stdout.trim().split("\n").pop()}` };
    const studies = (await (await request.get("/api/v1/studies", { headers: leadAuth })).json()) as { studies: { id: string; slug: string }[] };
    const open = studies.studies.find((s) => s.slug === "demo-clinical-qa")!;
    expect((await request.post(`/api/v1/studies/${open.id}/assignments`, { headers: leadAuth, data: { seed: "e2e-grading" } })).status()).toBe(200);

    // Violations as pages report them (an init script runs outside the page's CSP) and as Chromium logs them.
    const logged: string[] = [];
    async function watchedPage() {
      const c = await browser.newContext();
      await c.addInitScript(() => {
        const w = window as unknown as { __csp: string[] };
        w.__csp = [];
        document.addEventListener("securitypolicyviolation", (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
      });
      const p = await c.newPage();
      p.on("console", (m) => {
        if (/Content Security Policy|Refused to (execute|load|apply)/i.test(m.text())) logged.push(m.text());
      });
      return p;
    }
    const violations = (p: Page) => p.evaluate(() => (window as unknown as { __csp: string[] }).__csp);

    const seen: string[] = [];
    async function check(p: Page, url: string, status = 200) {
      const res = await p.goto(url);
      expect(res!.status(), url).toBe(status);
      await p.waitForLoadState("networkidle");
      const policy = scriptSrc(res!.headers()["content-security-policy"]);
      expect(policy, url).toHaveLength(1);
      expect(policy[0], url).not.toContain("unsafe-inline");
      const nonce = policy[0].match(/'nonce-([^']+)'/)?.[1];
      expect(nonce, `${url}: the policy has a nonce`).toBeTruthy();
      // Every script the server wrote carries this response's nonce.
      const tags = (await res!.text()).match(/<script\b[^>]*>/g) ?? [];
      expect(tags.length, url).toBeGreaterThan(0);
      for (const tag of tags) expect(tag, url).toContain(`nonce="${nonce}"`);
      expect(await violations(p), `${url}: violations`).toEqual([]);
      expect(logged, `${url}: violations logged`).toEqual([]);
      seen.push(url);
    }

    const page = await watchedPage();
    await check(page, "/no-such-page", 404);
    await check(page, "/login");
    await page.getByLabel("Email").fill(demo.graders[0].email);
    await page.getByLabel("Password").fill(demo.graders[0].password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/queue$/);
    await check(page, "/queue");
    // Into the grading page by the app's own navigation, then as a full load.
    await page.locator('a[href^="/grade/"]').first().click();
    await expect(page).toHaveURL(/\/grade\/[0-9a-f-]{36}/);
    await page.waitForLoadState("networkidle");
    expect(await violations(page), "navigating from the queue to the grading page").toEqual([]);
    await check(page, new URL(page.url()).pathname);
    // The form's scripts run: its shortcuts dialog opens.
    await page.getByRole("button", { name: /Shortcuts/ }).click();
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
    await page.keyboard.press("Escape");

    const leadPage = await watchedPage();
    await signIn(leadPage, demo.lead);
    await check(leadPage, `/studies/${pilot.id}/dashboard`);
    await expect(leadPage.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    await expect(leadPage.locator("svg.recharts-surface").first()).toBeVisible();

    // Nor since (the dialog, the charts drawn after load).
    for (const p of [page, leadPage]) expect(await violations(p), p.url()).toEqual([]);
    expect(logged).toEqual([]);
    expect(seen).toHaveLength(5);
    for (const p of [page, leadPage]) await p.context().close();
  });

  test("the server listens on HOST only, 127.0.0.1 when unset", async ({ request }) => {
    const port = Number(process.env.E2E_PORT ?? "3100");
    expect((await request.get(`http://127.0.0.1:${port}/api/health`)).status()).toBe(200);
    // The kernel's own table of listening sockets says where the server is bound, whatever this machine's interfaces.
    const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
    const bound = ["/proc/net/tcp", "/proc/net/tcp6"]
      .flatMap((file) => readFileSync(file, "utf8").split("\n").slice(1))
      .map((line) => line.trim().split(/\s+/))
      .filter((f) => f.length > 3 && f[1].endsWith(`:${hexPort}`) && f[3] === "0A")
      .map((f) => f[1].slice(0, -5));
    const expected = (process.env.HOST ?? "127.0.0.1") === "127.0.0.1" ? ["0100007F"] : null;
    expect(bound.length).toBeGreaterThan(0);
    if (expected) expect([...new Set(bound)]).toEqual(expected);
    // And from another address of this machine, if it has one, nothing answers.
    const others = Object.values(os.networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal && a.family === "IPv4")
      .map((a) => a!.address);
    for (const address of process.env.HOST ? [] : others) {
      const err = await fetch(`http://${address}:${port}/api/health`).then(
        () => null,
        (e: Error & { cause?: { code?: string } }) => e.cause?.code ?? e.message,
      );
      expect(err, `http://${address}:${port} answered`).toBe("ECONNREFUSED");
    }
  });

  test("hostile input: oversized bodies 413, malformed JSON 400, SQL metacharacters are data", async ({ request }) => {
    const out = await adminCli(["create-token", "--email", demo.lead.email]);
    const auth = { authorization: `Bearer ${out.stdout.trim().split("\n").pop()}` };
    const big = await request.post("/api/v1/studies", { headers: { ...auth, "content-type": "application/json" }, data: JSON.stringify({ name: "x".repeat(2_000_000) }) });
    expect(big.status()).toBe(413);
    const bad = await request.post("/api/v1/studies", { headers: { ...auth, "content-type": "application/json" }, data: Buffer.from("{not json") });
    expect(bad.status()).toBe(400);
    expect(await bad.json()).toEqual({ error: "request body is not valid JSON" });
    const name = `Robert'); DROP TABLE "Study";-- <script>alert(1)</script>`;
    const made = await request.post("/api/v1/studies", { headers: auth, data: { name, rubrics: ["SCORE"] } });
    expect(made.status()).toBe(201);
    const { id } = (await made.json()) as { id: string };
    const got = await request.get(`/api/v1/studies/${id}`, { headers: auth });
    expect(((await got.json()) as { name: string }).name).toBe(name);
    expect((await request.get("/api/v1/studies", { headers: auth })).status()).toBe(200);
  });

  test("HTML and script in study names and answers render as text", async ({ page }) => {
    let alerted = false;
    page.on("dialog", async (d) => {
      alerted = true;
      await d.dismiss();
    });
    await signIn(page, demo.lead);
    await page.goto("/studies");
    await expect(page.getByText(`<script>alert(1)</script>`, { exact: false }).first()).toBeVisible();
    expect(alerted).toBe(false);
  });
});
