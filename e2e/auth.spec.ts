import { expect, test } from "@playwright/test";
import { adminCli, demo, signIn } from "./fixtures";

test.describe("sign-in and roles", () => {
  test("a lead lands on the studies list and sees the demo study", async ({ page }) => {
    await signIn(page, demo.lead);
    await expect(page).toHaveURL(/\/studies$/);
    await expect(page.getByRole("heading", { name: "Studies" })).toBeVisible();
    await expect(page.getByText("Demo", { exact: false }).first()).toBeVisible();
    await expect(page.getByTestId("current-user")).toContainText("Study lead");
    await page.screenshot({ path: test.info().outputPath("lead-landing.png"), fullPage: true });
  });

  test("a grader lands on their queue and is refused lead pages and lead API", async ({ page }) => {
    await signIn(page, demo.graders[0]);
    await expect(page).toHaveURL(/\/queue$/);
    await expect(page.getByRole("heading", { name: "My grading queue" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText(["My grading queue"]);

    const res = await page.goto("/studies");
    expect(res?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Not available to your role" })).toBeVisible();
    const admin = await page.goto("/admin/users");
    expect(admin?.status()).toBe(403);

    const api = await page.request.get("/api/v1/studies");
    expect(api.status()).toBe(403);
    expect(await api.json()).toEqual({ error: "this needs one of the roles LEAD, ADMIN" });
  });

  test("an admin lands on the users page", async ({ page }) => {
    await signIn(page, demo.admin);
    await expect(page).toHaveURL(/\/admin\/users$/);
    await expect(page.getByRole("table", { name: "Users" })).toContainText(demo.graders[3].email);
  });

  test("a wrong password is refused with a clear message, and the anonymous are sent to sign in", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Email").fill(demo.lead.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveText(/Email or password is wrong/);
    await page.goto("/queue");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("sign-out ends the session, on the server too", async ({ page, context }) => {
    await signIn(page, demo.lead);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name.endsWith("next-auth.session-token"));
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe("Lax");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    // replaying the old cookie gets nothing: the server-side session was revoked
    await context.addCookies([session!]);
    const replay = await page.request.get("/api/v1/me");
    expect(replay.status()).toBe(401);
  });

  test("a deactivated user is refused at once, even with a live session", async ({ page }) => {
    const email = `temp-${Date.now()}@demo.clingrade.org`;
    expect((await adminCli(["create-user", "--email", email, "--name", "Temp Grader", "--role", "GRADER", "--password", "temp-password-1"])).code).toBe(0);
    await signIn(page, { email, password: "temp-password-1" });
    await expect(page).toHaveURL(/\/queue$/);
    expect((await adminCli(["deactivate-user", "--email", email])).code).toBe(0);
    await page.reload();
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe("API tokens", () => {
  test("a token from the admin CLI authenticates /api/v1 with the same role rules", async ({ request }) => {
    const out = await adminCli(["create-token", "--email", demo.graders[1].email]);
    expect(out.code).toBe(0);
    const token = out.stdout.trim().split("\n").pop()!;
    const me = await request.get("/api/v1/me", { headers: { authorization: `Bearer ${token}` } });
    expect(me.status()).toBe(200);
    expect(await me.json()).toMatchObject({ email: demo.graders[1].email, role: "GRADER" });
    const lead = await request.get("/api/v1/studies", { headers: { authorization: `Bearer ${token}` } });
    expect(lead.status()).toBe(403);
    const bad = await request.get("/api/v1/me", { headers: { authorization: "Bearer cgt_forged" } });
    expect(bad.status()).toBe(401);
  });
});
