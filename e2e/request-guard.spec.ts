import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Browser } from "@playwright/test";
import { demo, signIn } from "./fixtures";

/**
 * What Next's own routing and next-auth used to answer with a 500, against the
 * production server: a path parameter that is not percent-encoded UTF-8, on
 * every API route and page and for every role (a 400 problem on the API, the
 * 404 page elsewhere), and a malformed next-auth callback URL cookie (ignored:
 * next-auth answers, and signing in works with it present).
 */
const BAD = ["%FF", "%C0%AF", "%ED%A0%80", "%E0%80", "%80", "%ZZ"];

function patterns(dir: string, file: "route.ts" | "page.tsx", base = ""): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return patterns(p, file, base + (name.startsWith("(") ? "" : `/${name}`));
    return name === file ? [base || "/"] : [];
  });
}

const fill = (pattern: string, bad: string) => pattern.replace(/\[(?:\.\.\.)?\w+\]/g, bad);

async function contextFor(browser: Browser, user: { email: string; password: string } | null) {
  const context = await browser.newContext();
  if (user) {
    const page = await context.newPage();
    await signIn(page, user);
    await page.close();
  }
  return context;
}

test("a path parameter that is not UTF-8 is a 400 problem on every API route and the 404 page on every page, for every role", async ({ browser }) => {
  test.setTimeout(240_000);
  const api = patterns(path.resolve("app/api"), "route.ts", "/api").filter((p) => p.includes("[") && !p.includes("nextauth"));
  const pages = patterns(path.resolve("app"), "page.tsx").filter((p) => p.includes("["));
  expect(api.length).toBeGreaterThan(20);
  expect(pages.length).toBeGreaterThan(10);
  const contexts = {
    anonymous: await contextFor(browser, null),
    grader: await contextFor(browser, demo.graders[0]),
    lead: await contextFor(browser, demo.lead),
    admin: await contextFor(browser, demo.admin),
  };
  const failures: string[] = [];
  for (const [who, context] of Object.entries(contexts)) {
    const request: APIRequestContext = context.request;
    for (const bad of BAD) {
      for (const pattern of api) {
        const url = fill(pattern, bad);
        for (const method of ["GET", "POST"] as const) {
          const res = await request.fetch(url, { method, maxRedirects: 0, headers: { "content-type": "application/json" }, data: method === "POST" ? "{}" : undefined });
          const body = await res.text();
          if (res.status() !== 400 || !body.includes("not valid percent-encoded UTF-8")) failures.push(`${who} ${method} ${url}: ${res.status()} ${body.slice(0, 80)}`);
        }
      }
      for (const pattern of pages) {
        const url = fill(pattern, bad);
        const res = await request.get(url, { maxRedirects: 0 });
        const body = await res.text();
        if (res.status() !== 404 || !body.includes("Page not found")) failures.push(`${who} GET ${url}: ${res.status()}`);
      }
    }
  }
  expect(failures).toEqual([]);
  for (const c of Object.values(contexts)) await c.close();
});

test("a malformed next-auth callback URL cookie is ignored: next-auth answers and signing in works", async ({ browser, request, baseURL }) => {
  for (const value of ["abc", "\\", '"', "x".repeat(8000), "javascript:alert(1)"]) {
    const label = JSON.stringify(value.slice(0, 20));
    for (const url of ["/api/auth/csrf", "/api/auth/session", "/api/auth/providers", "/api/auth/csrf?callbackUrl=abc"]) {
      for (const name of ["next-auth.callback-url", "__Secure-next-auth.callback-url"]) {
        const res = await request.get(url, { headers: { cookie: `${name}=${value}` } });
        expect(res.status(), `${url} ${name}=${label}`).toBe(200);
        expect(res.headers()["content-type"], `${url} ${label}`).toContain("application/json");
      }
    }
  }
  // A browser holding such a cookie signs in through the real form, and is told to forget it.
  for (const value of ["abc", "javascript:alert(1)", "x".repeat(3000)]) {
    const context = await browser.newContext();
    await context.addCookies([{ name: "next-auth.callback-url", value, url: baseURL! }]);
    const page = await context.newPage();
    await signIn(page, demo.lead);
    await expect(page).toHaveURL(/\/studies/);
    expect((await context.cookies()).some((c) => c.name === "next-auth.callback-url" && c.value === value), value.slice(0, 20)).toBe(false);
    await context.close();
  }
});
