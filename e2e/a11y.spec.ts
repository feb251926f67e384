import { readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import pg from "pg";
import { PILOT_GRADERS } from "../lib/demo/seed";
import { demo, e2eDatabaseUrl, signIn } from "./fixtures";

/**
 * An axe-core scan (WCAG 2.1 AA) of every page of the app as each role sees
 * it, on the seeded demo: the open study (assigned, nothing graded) and the
 * closed, graded pilot (dashboards, results, harm flags, escalations and a
 * long audit log), the grader's queue and grading page in both. Every
 * serious or critical violation fails, listed by page.
 */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

function pages(dir: string, base = ""): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name === "api" || name.startsWith("_")) return [];
      const segment = name.startsWith("(") ? "" : `/${name}`;
      return pages(p, base + segment);
    }
    return name === "page.tsx" ? [base || "/"] : [];
  });
}

async function signedIn(browser: Browser, user: { email: string; password: string } | null): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (user) await signIn(page, user);
  return page;
}

test("every page of every role has no serious or critical WCAG 2.1 AA violation", async ({ browser }) => {
  test.setTimeout(600_000);
  const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await db.connect();
  const studyId = async (slug: string) => (await db.query<{ id: string }>(`SELECT id FROM "Study" WHERE slug = $1`, [slug])).rows[0].id;
  const firstAssignment = async (email: string) =>
    (await db.query<{ id: string }>(`SELECT a.id FROM "Assignment" a JOIN "User" u ON u.id = a."graderId" WHERE u.email = $1 ORDER BY a.position LIMIT 1`, [email])).rows[0].id;
  const open = await studyId("demo-clinical-qa");
  const pilot = await studyId("demo-pilot-graded");
  const graderSet = await firstAssignment(demo.graders[0].email);
  const pilotSet = await firstAssignment(PILOT_GRADERS[0].email);
  // A set's detail page: an adjudicated set where there is one (the most on the page).
  const aSet = async (study: string) =>
    (await db.query<{ id: string }>(`SELECT id FROM "ResponseSet" WHERE "studyId" = $1 ORDER BY (status = 'ADJUDICATED') DESC, id LIMIT 1`, [study])).rows[0].id;
  const setOf = { [open]: await aSet(open), [pilot]: await aSet(pilot) };
  await db.end();

  const routes = pages(path.resolve("app"));
  const visits: { who: string; url: string }[] = [{ who: "anonymous", url: "/login" }];
  for (const route of routes) {
    if (route.startsWith("/studies/[id]")) {
      for (const id of [open, pilot]) visits.push({ who: "lead", url: route.replace("[id]", id).replace("[setId]", setOf[id]) });
    } else if (route === "/queue") {
      visits.push({ who: "grader", url: "/queue" }, { who: "pilotGrader", url: "/queue" });
    } else if (route === "/grade/[assignmentId]") {
      visits.push({ who: "grader", url: `/grade/${graderSet}` }, { who: "pilotGrader", url: `/grade/${pilotSet}` });
    } else if (route === "/admin/users") visits.push({ who: "admin", url: route });
    else if (route === "/studies" || route === "/studies/new" || route === "/api-docs") visits.push({ who: "lead", url: route }, ...(route === "/studies" ? [{ who: "admin", url: route }] : []));
  }
  visits.push({ who: "admin", url: `/studies/${pilot}` }, { who: "lead", url: "/no-such-page" });

  const as = {
    anonymous: await signedIn(browser, null),
    grader: await signedIn(browser, demo.graders[0]),
    pilotGrader: await signedIn(browser, PILOT_GRADERS[0]),
    lead: await signedIn(browser, demo.lead),
    admin: await signedIn(browser, demo.admin),
  } as const;

  const found: string[] = [];
  const report: { who: string; url: string; heading: string; passes: number; violations: unknown[] }[] = [];
  for (const v of visits) {
    const page = as[v.who as keyof typeof as];
    await page.goto(v.url);
    await page.waitForLoadState("networkidle");
    // The route's content, not its streamed "Loading…" shell nor the grading form's frame.
    await expect(page.getByRole("status").filter({ hasText: /^Loading/ })).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    const heading = await page.getByRole("heading", { level: 1 }).first().innerText();
    const { violations, passes } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
    report.push({ who: v.who, url: v.url, heading, passes: passes.length, violations } as (typeof report)[number]);
    for (const x of violations.filter((x) => x.impact === "serious" || x.impact === "critical")) {
      found.push(`${v.who} ${v.url.replace(open, "<open>").replace(pilot, "<pilot>")}: ${x.id} (${x.nodes.length}): ${x.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
    }
  }
  const out = test.info().outputPath("axe-report.json");
  writeFileSync(out, JSON.stringify(report, null, 1));
  await test.info().attach("axe-report.json", { path: out, contentType: "application/json" });
  expect(visits.length).toBeGreaterThan(25);
  expect(found, `scanned ${visits.length} pages`).toEqual([]);
  for (const p of Object.values(as)) await p.context().close();
});
