import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { demo, signIn } from "./fixtures";

const likert = { kind: "ordinal", levels: [1, 2, 3, 4, 5].map((value) => ({ value, label: String(value) })) };
/** A study's own instrument: no total, a nominal item, N/A allowed. */
const WARD = {
  key: "ward_protocol",
  name: "Ward protocol survey",
  version: 1,
  dimensions: [
    { key: "usefulness", name: "Usefulness", scope: "each_answer", scale: { ...likert, allowNA: true }, escalation: { rule: "spread", threshold: 2 } },
    { key: "source", name: "Who wrote it", scope: "first_answer", scale: { kind: "nominal", levels: [{ value: "ai", label: "AI" }, { value: "human", label: "Human" }] }, escalation: { rule: "never" } },
  ],
  totals: [],
};

/**
 * Issue 36, item 2: the lead freezes a new study's protocol on its settings tab, sees the SHA-256
 * the API reports, is refused a change of k without a reason, and amends it with one: the
 * amendment is listed with its reason. axe clean.
 */
test("a lead freezes the protocol and amends it with a reason", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, demo.lead);
  const created = await page.request.post("/api/v1/studies", { data: { name: `Protocol e2e ${Date.now()}`, rubrics: [WARD], repetitions: 1, gradersPerSet: 2 } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  await page.goto(`/studies/${id}/settings`);
  const form = page.getByRole("form", { name: "Freeze the protocol" });
  await form.getByLabel("Assignment seed").fill("ward-e2e");
  await form.getByLabel("Primary outcome").fill("Mean usefulness per model");
  await form.getByLabel("Statistics and conventions").fill("Cliff's delta with bootstrap 95% CI\nGwet's AC2 with quadratic weights");
  await form.getByLabel("Correction for multiple comparisons").selectOption("holm");
  await form.getByRole("button", { name: "Freeze the protocol" }).click();
  const sha = page.getByTestId("protocol-sha256");
  await expect(sha).toHaveText(/^[0-9a-f]{64}$/);
  const api = (await (await page.request.get(`/api/v1/studies/${id}/protocol`)).json()) as { sha256: string; protocol: { design: { assignmentSeed: string } } };
  await expect(sha).toHaveText(api.sha256);
  expect(api.protocol.design.assignmentSeed).toBe("ward-e2e");

  const settings = page.getByRole("form", { name: "Study settings" });
  await settings.getByLabel("Primary graders per response set (k)").fill("3");
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(settings.getByText(/gradersPerSet is part of it; send amendmentReason/)).toBeVisible();
  await settings.getByLabel("Reason for amending the frozen protocol").fill("A third ward clinician joined");
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(settings.getByText("Settings saved.")).toBeVisible();
  const amendments = page.getByRole("table", { name: "Amendments" });
  await expect(amendments).toContainText("gradersPerSet");
  await expect(amendments).toContainText("A third ward clinician joined");

  // The save refreshes the route, whose head (the page's title) React puts back as the refresh lands:
  // axe reads the page once it has.
  await expect(page).toHaveTitle(/Study settings/);
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
});
