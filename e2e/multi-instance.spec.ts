import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { startBalancer, SERVED_BY, type Balancer } from "../bench/lib/balancer";
import { startServer, withDatabase } from "../bench/lib/server";
import { form, GOOD_SAFE } from "../tests/fixtures/grade-form";
import { demo, e2eDatabaseUrl } from "./fixtures";

/**
 * Several instances, one database (issue 20): two production servers on one
 * PostgreSQL behind a round-robin balancer (bench/lib/balancer.ts: each
 * request goes to the next instance) behave as one. Sign-in, the session and
 * grading go through Chromium; throttling, drafts, concurrent submissions with
 * their escalation, an import and the exports are driven over HTTP, through
 * the balancer or at one instance on purpose. Each check would fail if the
 * state it relies on lived in one server's memory: a session, a throttle
 * count, a draft, the set's lock, an import.
 *
 * The instances run on a database of their own on the e2e server's PostgreSQL,
 * started together (both migrate it, under the migration lock), the first with
 * the demo seed.
 */
test.describe.configure({ mode: "serial" });

const base = Number(process.env.E2E_PORT ?? "3100") + 41;
const PORTS = [base, base + 1] as const;
const BALANCER_PORT = base + 2;
const LB = `http://127.0.0.1:${BALANCER_PORT}`;
const direct = (i: 0 | 1) => `http://127.0.0.1:${PORTS[i]}`;
/** Failures of one address on one account before the pair is refused (LOGIN_REFUSE_AFTER on both instances). */
const REFUSE_AFTER = 5;

test.use({ baseURL: LB });

let balancer: Balancer;
let dbUrl = "";
let adminUrl = "";
const servers: { stop: () => Promise<void> }[] = [];

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const e2eDb = e2eDatabaseUrl();
  const name = `clingrade_multi_${PORTS[0]}`;
  adminUrl = withDatabase(e2eDb, "postgres");
  dbUrl = withDatabase(e2eDb, name);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();

  balancer = await startBalancer(BALANCER_PORT, [...PORTS]);
  const env = {
    // What a deployment behind a load balancer sets: the public URL, and the balancer as a trusted proxy.
    NEXTAUTH_URL: LB,
    TRUSTED_PROXIES: "127.0.0.1",
    LOGIN_REFUSE_AFTER: String(REFUSE_AFTER),
    LOGIN_SLOW_AFTER: "1000", // no slow-down: the count is what is tested
    DATABASE_POOL_SIZE: "5",
  };
  const started = await Promise.allSettled([startServer(dbUrl, PORTS[0], env, { args: ["--seed-demo"] }), startServer(dbUrl, PORTS[1], env)]);
  for (const s of started) if (s.status === "fulfilled") servers.push(s.value);
  const failed = started.find((s) => s.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
  // The second instance may have answered before the first finished seeding.
  await expect.poll(async () => (await query<{ n: number }>(`SELECT count(*)::int AS n FROM "Study" WHERE slug = 'demo-clinical-qa'`))[0].n, { timeout: 60_000 }).toBe(1);
});

test.afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await balancer?.close();
  if (adminUrl) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS clingrade_multi_${PORTS[0]} WITH (FORCE)`);
    await admin.end();
  }
});

async function query<T extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    return (await c.query<T>(text, params)).rows;
  } finally {
    await c.end();
  }
}

const servedBy = (r: Response) => Number(r.headers.get(SERVED_BY));

/** Cookies a response sets, as a Cookie header's pairs. */
function cookiesOf(r: Response): string[] {
  return r.headers.getSetCookie().map((c) => c.split(";")[0]);
}

/**
 * next-auth's credentials sign-in as the form makes it, over HTTP: the CSRF
 * token and its cookie (from whichever instance), then the callback. `from`
 * is the client address the balancer is told (X-Forwarded-For), so that each
 * scenario has a throttle count of its own.
 */
async function csrf(origin: string, from: string) {
  const r = await fetch(`${origin}/api/auth/csrf`, { headers: { "x-forwarded-for": from } });
  expect(r.status).toBe(200);
  const { csrfToken } = (await r.json()) as { csrfToken: string };
  return { csrfToken, cookies: cookiesOf(r) };
}

async function attemptSignIn(origin: string, from: string, token: Awaited<ReturnType<typeof csrf>>, email: string, password: string) {
  const r = await fetch(`${origin}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: token.cookies.join("; "), "x-forwarded-for": from },
    body: new URLSearchParams({ csrfToken: token.csrfToken, email, password, json: "true" }),
    redirect: "manual",
  });
  // next-auth answers 200 with the page to go to, 401 with its error page.
  expect([200, 401], await r.clone().text()).toContain(r.status);
  const { url } = (await r.json()) as { url: string };
  const error = new URL(url).searchParams.get("error");
  const session = cookiesOf(r).find((c) => c.startsWith("next-auth.session-token="));
  const outcome = error === null && session ? "signed-in" : error?.startsWith("THROTTLED:") ? "throttled" : error === "CredentialsSignin" ? "invalid" : `unexpected: ${error}`;
  return { outcome, session, servedBy: servedBy(r) };
}

/** A session cookie for a demo user, signed in through the balancer. */
async function sessionOf(user: { email: string; password: string }): Promise<string> {
  const token = await csrf(LB, "192.0.2.10");
  const r = await attemptSignIn(LB, "192.0.2.10", token, user.email, user.password);
  expect(r.outcome).toBe("signed-in");
  return r.session!;
}

async function api(origin: string, path: string, cookie: string, init: RequestInit = {}) {
  return fetch(`${origin}${path}`, { ...init, headers: { cookie, "content-type": "application/json", ...init.headers } });
}

let studyId = "";
/** Each demo grader's session and primary assignments of the demo study (after the lead's assignment run). */
const graders: { cookie: string; assignments: { id: string; responseSetId: string; kind: string; status: string }[] }[] = [];
let leadCookie = "";

test("sign-in through the balancer gives a session that both instances honour, and sign-out ends it on both", async ({ page, context }) => {
  await signInThroughForm(page, demo.graders[0]);
  await expect(page).toHaveURL(/\/queue$/);
  // The queue is rendered for the signed-in grader by both instances.
  const queues = await loadOnBoth("/queue", async () => {
    await page.goto("/queue");
    await expect(page.getByRole("heading", { name: "My grading queue" })).toBeVisible();
  });
  expect(queues.every((s) => s.status === 200)).toBe(true);
  expect(new Set(queues.map((s) => s.upstream))).toEqual(new Set([0, 1]));
  // Straight at each instance, the browser's cookie is the same session.
  for (const i of [0, 1] as const) {
    const me = await page.request.get(`${direct(i)}/api/v1/me`);
    expect(me.status(), `instance ${i}`).toBe(200);
    expect(await me.json()).toMatchObject({ email: demo.graders[0].email });
  }

  const session = (await context.cookies()).find((c) => c.name === "next-auth.session-token")!;
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await context.addCookies([session]);
  for (const i of [0, 1] as const) expect((await page.request.get(`${direct(i)}/api/v1/me`)).status(), `instance ${i} after sign-out`).toBe(401);
});

/**
 * Loads a page (`load`) through the balancer until both instances have
 * rendered `path`, and returns those renders. The balancer turns per request,
 * and a page's other requests (its data, scripts, prefetches) vary in number,
 * so before each load the turn is moved, by one request, onto the instance
 * that has not rendered the page yet.
 */
async function loadOnBoth(path: string, load: () => Promise<void>) {
  const from = balancer.log.length;
  const renders = () => balancer.log.slice(from).filter((s) => s.method === "GET" && s.path === path);
  for (let i = 0; i < 12; i++) {
    const seen = new Set(renders().map((s) => s.upstream));
    if (seen.size === 2) break;
    if (seen.size === 1 && seen.has(balancer.nextUpstream())) await fetch(`${LB}/api/health`);
    await load();
  }
  return renders();
}

async function signInThroughForm(page: Page, user: { email: string; password: string }) {
  await page.goto("/login", { waitUntil: "networkidle" });
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

test("failed sign-ins are counted across instances: the pair is refused at the same count as on one instance", async () => {
  const user = demo.admin;
  // One instance: the reference count.
  const one = await csrf(direct(0), "198.51.100.1");
  const alone: string[] = [];
  for (let i = 0; i <= REFUSE_AFTER; i++) alone.push((await attemptSignIn(direct(0), "198.51.100.1", one, user.email, "wrong-password")).outcome);
  expect(alone).toEqual([...Array(REFUSE_AFTER).fill("invalid"), "throttled"]);

  // Through the balancer: every attempt goes to the other instance than the one before.
  const token = await csrf(LB, "198.51.100.2");
  const spread: { outcome: string; servedBy: number }[] = [];
  for (let i = 0; i <= REFUSE_AFTER; i++) spread.push(await attemptSignIn(LB, "198.51.100.2", token, user.email, "wrong-password"));
  expect(spread.map((a) => a.outcome)).toEqual(alone);
  expect(spread.filter((a) => a.servedBy === 0).length).toBeGreaterThanOrEqual(2);
  expect(spread.filter((a) => a.servedBy === 1).length).toBeGreaterThanOrEqual(2);
  // Refused on both instances, the right password too; another address is not.
  for (const i of [0, 1] as const) expect((await attemptSignIn(direct(i), "198.51.100.2", token, user.email, user.password)).outcome).toBe("throttled");
  expect((await attemptSignIn(LB, "198.51.100.3", await csrf(LB, "198.51.100.3"), user.email, user.password)).outcome).toBe("signed-in");
});

test("the lead's assignment run, then a draft saved on one instance is read on the other and finished in Chromium", async ({ page }) => {
  leadCookie = await sessionOf(demo.lead);
  const list = await api(LB, "/api/v1/studies?q=demo&pageSize=100", leadCookie);
  expect(list.status).toBe(200);
  studyId = ((await list.json()) as { studies: { id: string; slug: string }[] }).studies.find((s) => s.slug === "demo-clinical-qa")!.id;
  const run = await api(LB, `/api/v1/studies/${studyId}/assignments`, leadCookie, { method: "POST", body: JSON.stringify({ seed: "multi-instance" }) });
  expect(run.status, await run.text()).toBe(200);
  for (const g of demo.graders) {
    const cookie = await sessionOf(g);
    const mine = await api(LB, "/api/v1/me/assignments", cookie);
    expect(mine.status).toBe(200);
    graders.push({ cookie, assignments: ((await mine.json()) as { assignments: (typeof graders)[number]["assignments"] }).assignments.filter((a) => a.kind === "PRIMARY") });
  }

  // A draft saved on instance 0 ...
  const [g] = graders;
  const draftId = g.assignments[g.assignments.length - 1].id;
  const scoreOnly = form({ score: [4, 4, 5, 4, 3] });
  const saved = await api(direct(0), `/api/v1/assignments/${draftId}/grades`, g.cookie, { method: "PUT", body: JSON.stringify({ scores: scoreOnly, submit: false }) });
  expect(saved.status, await saved.text()).toBe(200);
  // ... is read on instance 1,
  const read = await api(direct(1), `/api/v1/assignments/${draftId}`, g.cookie);
  expect(read.status).toBe(200);
  const { scores } = (await read.json()) as { scores: { rubric: string; dimension: string; repetition: number | null; score: number }[] };
  expect(scores.map(({ rubric, dimension, repetition, score }) => ({ rubric, dimension, repetition, score })).sort((a, b) => a.dimension.localeCompare(b.dimension))).toEqual(
    [...scoreOnly].sort((a, b) => a.dimension.localeCompare(b.dimension)),
  );

  // ... and by the grader in Chromium through the balancer, whichever instance renders the page.
  await signInThroughForm(page, demo.graders[0]);
  const checked = (cell: string, v: number) => expect(page.locator(`input[name="${cell}"][value="${v}"]`)).toBeChecked();
  const renders = await loadOnBoth(`/grade/${draftId}`, async () => {
    await page.goto(`/grade/${draftId}`);
    await checked("SCORE/safety/1", 4);
    await checked("SCORE/objectivity/1", 5);
    await checked("SCORE/reproducibility/0", 4);
    await checked("SCORE/explainability/1", 3);
  });
  expect(new Set(renders.map((s) => s.upstream))).toEqual(new Set([0, 1]));
  // The grader finishes the form (every autosave goes to the next instance) and submits.
  for (const r of [1, 2, 3]) {
    for (const [dimension, v] of [["accuracy", 2], ["comprehensiveness", 2], ["supplementation", 1], ["fluency", 1]] as const) {
      await page.locator(`label:has(> input[name="SAFE_LLM/${dimension}/${r}"][value="${v}"])`).click();
      await checked(`SAFE_LLM/${dimension}/${r}`, v);
    }
  }
  await expect(page.getByTestId("save-status")).toHaveText("Saved");
  await page.getByRole("button", { name: "Submit grades" }).first().click();
  await expect(page).not.toHaveURL(new RegExp(`/grade/${draftId}$`));
  const [row] = await query<{ status: string; grades: number }>(`SELECT a.status::text AS status, (SELECT count(*)::int FROM "Grade" WHERE "assignmentId" = a.id) AS grades FROM "Assignment" a WHERE id = $1`, [draftId]);
  expect(row).toEqual({ status: "SUBMITTED", grades: 18 });
  g.assignments.pop();
});

test("two graders submit a set at once on different instances: its escalation is opened exactly once, round after round", async () => {
  test.setTimeout(120_000);
  // The sets whose two primaries are both still open, each with its two graders.
  const bySet = new Map<string, { grader: number; id: string }[]>();
  graders.forEach((g, grader) => g.assignments.filter((a) => a.status !== "SUBMITTED").forEach((a) => bySet.set(a.responseSetId, [...(bySet.get(a.responseSetId) ?? []), { grader, id: a.id }])));
  const rounds = [...bySet].filter(([, ps]) => ps.length === 2).slice(0, 12);
  expect(rounds.length).toBeGreaterThanOrEqual(8);

  const disagree = new Set<string>();
  for (const [i, [setId, [p1, p2]]] of rounds.entries()) {
    // Even rounds disagree on safety (5 against 1): an escalation; odd rounds agree: none.
    const escalates = i % 2 === 0;
    if (escalates) disagree.add(setId);
    const body = (safety: number) => JSON.stringify({ scores: form({ score: [safety, 4, 4, 4, 4], safe: GOOD_SAFE }), submit: true });
    const [r1, r2] = await Promise.all([
      api(direct(0), `/api/v1/assignments/${p1.id}/grades`, graders[p1.grader].cookie, { method: "PUT", body: body(5) }),
      api(direct(1), `/api/v1/assignments/${p2.id}/grades`, graders[p2.grader].cookie, { method: "PUT", body: body(escalates ? 1 : 5) }),
    ]);
    expect([r1.status, r2.status], `round ${i}: ${await r1.text()} ${await r2.text()}`).toEqual([200, 200]);
  }

  const sets = rounds.map(([setId]) => setId);
  const rows = await query<{ id: string; status: string; escalations: number; opened: number; reopened: number; adjudications: number; linked: number }>(
    `SELECT s.id, s.status::text AS status,
            (SELECT count(*)::int FROM "Escalation" e WHERE e."responseSetId" = s.id) AS escalations,
            (SELECT count(*)::int FROM "AuditEvent" ev JOIN "Escalation" e ON e.id::text = ev."entityId" WHERE e."responseSetId" = s.id AND ev.action = 'escalation.create') AS opened,
            (SELECT count(*)::int FROM "AuditEvent" ev JOIN "Escalation" e ON e.id::text = ev."entityId" WHERE e."responseSetId" = s.id AND ev.action = 'escalation.reopen') AS reopened,
            (SELECT count(*)::int FROM "Assignment" a WHERE a."responseSetId" = s.id AND a.kind = 'ADJUDICATOR') AS adjudications,
            (SELECT count(*)::int FROM "Escalation" e WHERE e."responseSetId" = s.id AND e."adjudicatorAssignmentId" IS NOT NULL) AS linked
       FROM "ResponseSet" s WHERE s.id = ANY($1::uuid[])`,
    [sets],
  );
  expect(rows).toHaveLength(sets.length);
  const expected = (r: (typeof rows)[number]) =>
    disagree.has(r.id)
      ? { id: r.id, status: "AWAITING_ADJUDICATION", escalations: 1, opened: 1, reopened: 0, adjudications: r.linked, linked: r.linked }
      : { id: r.id, status: "AGREED", escalations: 0, opened: 0, reopened: 0, adjudications: 0, linked: 0 };
  // Every set at once, so that a failure shows how many rounds went wrong.
  expect(rows.filter((r) => JSON.stringify(r) !== JSON.stringify(expected(r)))).toEqual([]);
});

test("imports through one instance (a CSV, a study archive), then every export is byte for byte the same from either", async () => {
  test.setTimeout(120_000);
  const created = await api(LB, "/api/v1/studies", leadCookie, { method: "POST", body: JSON.stringify({ name: `Multi-instance import ${Date.now()}`, rubrics: ["SCORE"], repetitions: 1, gradersPerSet: 2 }) });
  expect(created.status, await created.clone().text()).toBe(201);
  const imported = ((await created.json()) as { id: string }).id;
  const csv = [
    "item_id,specialty,question,reference_answer,model,repetition,response",
    ...Array.from({ length: 40 }, (_, i) => `q-${i},Cardiology,"Question ${i}, with a comma?",Ref ${i},${i % 2 ? "Alpha" : "Beta"},1,"An answer ""quoted"" ${i}\nover two lines"`),
  ].join("\n");
  const r = await fetch(`${direct(0)}/api/v1/studies/${imported}/import`, { method: "POST", headers: { cookie: leadCookie, "content-type": "text/csv" }, body: csv });
  expect(r.status, await r.text()).toBe(200);

  const exportOf = async (origin: string, study: string, dataset: string, format: string) => {
    const res = await fetch(`${origin}/api/v1/studies/${study}/export?dataset=${dataset}&format=${format}`, { headers: { cookie: leadCookie } });
    expect(res.status, `${dataset}.${format}`).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    // The archive says when it was made; nothing else in any export depends on the moment.
    return dataset === "study" ? Buffer.from(bytes.toString("utf8").replace(/"exportedAt":\s*"[^"]+"/, '"exportedAt":"-"')) : bytes;
  };
  const sets = (await exportOf(direct(1), imported, "sets", "csv")).toString("utf8");
  expect(sets.trim().split("\n")).toHaveLength(41);
  expect(sets).toContain("q-39");
  // The graded demo study as an archive from instance 1, imported as a new study through instance 0.
  const archive = await fetch(`${direct(1)}/api/v1/studies/${studyId}/export?dataset=study&format=json`, { headers: { cookie: leadCookie } });
  expect(archive.status).toBe(200);
  const restoredRes = await fetch(`${direct(0)}/api/v1/study-archives`, { method: "POST", headers: { cookie: leadCookie, "content-type": "application/json" }, body: Buffer.from(await archive.arrayBuffer()) });
  expect(restoredRes.status, await restoredRes.clone().text()).toBe(201);
  const restored = ((await restoredRes.json()) as { id: string }).id;
  const names = new Map([[imported, "the CSV-imported study"], [studyId, "the demo study"], [restored, "the study restored from its archive"]]);
  for (const study of [imported, studyId, restored]) {
    for (const [dataset, format] of [["grades", "csv"], ["score-long", "csv"], ["sets", "csv"], ["sets", "json"], ["summary", "json"], ["audit", "csv"], ["study", "json"]]) {
      const [a, b] = [await exportOf(direct(0), study, dataset, format), await exportOf(direct(1), study, dataset, format)];
      expect(a.length, `${dataset}.${format}`).toBeGreaterThan(0);
      const at = [...a].findIndex((byte, i) => b[i] !== byte);
      const where = at < 0 ? "" : `, first difference at byte ${at}: ${JSON.stringify(a.subarray(Math.max(0, at - 40), at + 40).toString())} / ${JSON.stringify(b.subarray(Math.max(0, at - 40), at + 40).toString())}`;
      expect(b.equals(a), `${dataset}.${format} of ${names.get(study)}${where}`).toBe(true);
    }
  }
  // The graded demo study's exports carry the grades of the rounds above, and so does its restored copy.
  const gradeRows = async (study: string) => (await exportOf(direct(1), study, "grades", "csv")).toString("utf8").trim().split("\n").length;
  expect(await gradeRows(studyId)).toBeGreaterThan(12 * 2 * 18);
  expect(await gradeRows(restored)).toBe(await gradeRows(studyId));
});
