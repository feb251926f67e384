import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { DEMO_USERS } from "../lib/demo/seed";

export { DEMO_USERS };
export type DemoUser = (typeof DEMO_USERS)[number];

export const demo = {
  admin: DEMO_USERS.find((u) => u.role === "ADMIN")!,
  lead: DEMO_USERS.find((u) => u.role === "LEAD")!,
  graders: DEMO_USERS.filter((u) => u.role === "GRADER"),
};

/**
 * Waits for the grading form itself: a full load's HTML holds only its frame
 * (the question and a "Loading the grading form…" status), which the browser
 * replaces once the page is hydrated.
 */
export async function gradingFormShown(page: Page) {
  await expect(page.getByText("Loading the grading form…")).toHaveCount(0);
  await expect(page.locator("section[data-rubric]").first()).toBeVisible();
}

/** Signs in through the real form, as a person would. */
export async function signIn(page: Page, user: { email: string; password: string }) {
  await page.goto("/login");
  // Wait for the form's script: a click before it loads would post the form natively.
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/**
 * Runs the admin CLI against the e2e server's database (or that of the server on `port`):
 * the standalone folder's admin script, from the server's copy (what the container image runs).
 */
export function adminCli(args: string[], port = process.env.E2E_PORT ?? "3100"): Promise<{ code: number; stdout: string; stderr: string }> {
  const { CLINGRADE_E2E_STANDALONE: standalone, ...shared } = JSON.parse(readFileSync(path.resolve(`e2e/.env.${port}.json`), "utf8")) as Record<string, string>;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(standalone, "admin.mjs"), ...args], { env: { ...process.env, ...shared } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** A connection string for the e2e server's database (or that of the server on `port`), in either mode. */
export function e2eDatabaseUrl(port = process.env.E2E_PORT ?? "3100"): string {
  const shared = JSON.parse(readFileSync(path.resolve(`e2e/.env.${port}.json`), "utf8")) as Record<string, string>;
  if (shared.DATABASE_URL) return shared.DATABASE_URL;
  const password = readFileSync(path.join(shared.CLINGRADE_DATA_DIR, "pg-password"), "utf8").trim();
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${shared.CLINGRADE_PG_PORT}/clingrade`;
}
