import { expect, test } from "@playwright/test";
import { startJudgeStub, type JudgeStub } from "../tests/integration/helpers/judge-stub";
import { demo, signIn } from "./fixtures";

/**
 * A lead runs an automated judge from the study page against a local
 * OpenAI-compatible stub (nothing leaves the machine): the admin sets the
 * endpoint up, the lead registers a judge and presses Run; the server's own
 * worker scores the sets while the page's progress bar follows it to the end.
 */
let stub: JudgeStub;
test.beforeAll(async () => {
  stub = await startJudgeStub({ delayMs: () => 40 });
});
test.afterAll(async () => stub.close());

test("a lead runs a judge and watches its progress bar fill", async ({ browser }) => {
  const adminPage = await (await browser.newContext()).newPage();
  await signIn(adminPage, demo.admin);
  const endpoint = await adminPage.request.post("/api/v1/judge-endpoints", {
    data: { name: `Local stub ${Date.now()}`, baseUrl: stub.url, model: "stub-judge-e2e", apiKey: "sk-e2e-stored-key", concurrency: 4 },
  });
  expect(endpoint.status()).toBe(201);
  expect(await endpoint.text()).not.toContain("sk-e2e-stored-key");

  const page = await (await browser.newContext()).newPage();
  await signIn(page, demo.lead);
  const list = await page.request.get("/api/v1/studies?q=demo&pageSize=100");
  const { studies } = (await list.json()) as { studies: { id: string; slug: string }[] };
  const study = studies.find((s) => s.slug === "demo-clinical-qa")!;
  const judge = await page.request.post(`/api/v1/studies/${study.id}/judges`, { data: { name: `E2E judge ${Date.now()}`, model: "stub-judge-e2e" } });
  expect(judge.status()).toBe(201);
  const { id: judgeId } = (await judge.json()) as { id: string };

  await page.goto(`/studies/${study.id}`);
  const row = page.getByTestId(/^judge-E2E judge/);
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: "Run judge" }).click();
  const bar = row.getByRole("progressbar");
  await expect(bar).toBeVisible();
  await expect(row.getByTestId("judge-run-summary")).toContainText(/^Finished: (\d+) of \1 answer sets scored/, { timeout: 60_000 });
  const max = Number(await bar.getAttribute("aria-valuemax"));
  expect(max).toBeGreaterThan(0);
  await expect(bar).toHaveAttribute("aria-valuenow", String(max));
  expect(stub.authorizations.every((a) => a === "Bearer sk-e2e-stored-key")).toBe(true);

  const runs = await page.request.get(`/api/v1/studies/${study.id}/judges/${judgeId}/runs`);
  const [run] = ((await runs.json()) as { runs: { status: string; tasks: { done: number; total: number } }[] }).runs;
  expect(run).toMatchObject({ status: "DONE", tasks: { done: max, total: max } });
  await page.screenshot({ path: "test-results/judge-run.png", fullPage: true });
});
