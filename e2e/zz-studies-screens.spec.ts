import { test } from "@playwright/test";
import { demo, signIn } from "./fixtures";
test("screens", async ({ page }) => {
  await signIn(page, demo.lead);
  await page.goto("/studies");
  await page.screenshot({ path: "/tmp/s-list.png", fullPage: true });
  await page.getByRole("table", { name: "Studies" }).getByRole("link").first().click();
  await page.waitForURL(/studies\/[0-9a-f-]{36}$/);
  const base = page.url();
  await page.goto(base + "/items?sort=-complete&pageSize=10");
  await page.screenshot({ path: "/tmp/s-items.png", fullPage: true });
  await page.goto(base + "/settings");
  await page.screenshot({ path: "/tmp/s-settings.png", fullPage: true });
  await page.goto("/api-docs");
  await page.screenshot({ path: "/tmp/s-docs.png" });
  await page.goto("/studies/00000000-0000-4000-8000-000000000000");
  await page.screenshot({ path: "/tmp/s-404.png" });
});
