/**
 * The study planner through its API (issue #36): each target answers the number with its method
 * and assumptions, the simulation runs off the request's thread, bad targets get a 422 naming the
 * field, and graders may not use it.
 */
import { describe, expect, it } from "vitest";
import { POST as planRoute } from "@/app/api/v1/planner/route";
import { PlannerAnswer } from "@/lib/planner/contract";
import { alphaSets, iccSets, kappaSets, pairwiseComparisons } from "@/lib/stats/planner";
import { bearer, call as callRoute, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
const post = async (token: string, body: unknown) =>
  (await callRoute(planRoute, "/api/v1/planner", bearer(token, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body), headers: { "content-type": "application/json" } }))) as { status: number; body: Body };

describe("POST /api/v1/planner", () => {
  it("answers every closed-form target with the same numbers as the statistics", async () => {
    const lead = await makeUser("LEAD");
    const icc = await post(lead.token, { target: "icc", expected: 0.7, graders: 3, ciWidth: 0.2 });
    expect(icc.status).toBe(200);
    expect(PlannerAnswer.parse(icc.body)).toBeTruthy();
    expect(icc.body.sets).toBe((iccSets(0.7, 3, 0.2) as { sets: number }).sets);
    expect(icc.body.method).toMatch(/Bonett \(2002\)/);
    expect(icc.body.assumptions.join(" ")).toMatch(/3 graders per set/);
    const alpha = await post(lead.token, { target: "alpha", expected: 0.7, items: 5, ciWidth: 0.1 });
    expect(alpha.body.sets).toBe(349);
    expect(alpha.body.sets).toBe((alphaSets(0.7, 5, 0.1) as { sets: number }).sets);
    const kappa = await post(lead.token, { target: "kappa", expected: 0.6, prevalence: 0.3, ciWidth: 0.3 });
    expect(kappa.body.sets).toBe((kappaSets(0.6, 0.3, 0.3) as { sets: number }).sets);
    const pairwise = await post(lead.token, { target: "pairwise", winProbability: 0.6, tieShare: 0.1 });
    expect(pairwise.body.sets).toBe((pairwiseComparisons(0.6, { tieShare: 0.1 }) as { sets: number }).sets);
  });

  it("simulates the power of a difference in a worker thread, with its Monte Carlo error", async () => {
    const lead = await makeUser("LEAD");
    const r = await post(lead.token, { target: "difference", meanDifference: 1, sd: 2, replicates: 1000, seed: 3 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.sets).toBeGreaterThan(50);
    expect(r.body.sets).toBeLessThan(85);
    expect(r.body.details.powerReached).toBeGreaterThanOrEqual(0.8);
    expect(r.body.details.monteCarloSE).toBeGreaterThan(0);
    expect(r.body.method).toMatch(/Wilcoxon-Mann-Whitney test by simulation \(1000 simulated studies per size, seed 3\)/);
    // Seeded: the same request gives the same answer.
    expect((await post(lead.token, { target: "difference", meanDifference: 1, sd: 2, replicates: 1000, seed: 3 })).body).toEqual(r.body);
  }, 60_000);

  it("names the problem and the field with a 422", async () => {
    const lead = await makeUser("LEAD");
    const cases: [unknown, string][] = [
      [{ target: "icc", expected: 1.5, graders: 3, ciWidth: 0.2 }, "expected"],
      [{ target: "icc", expected: 0.7, graders: 1, ciWidth: 0.2 }, "graders"],
      [{ target: "alpha", expected: 0.7, items: 5 }, "ciWidth"],
      [{ target: "difference", sd: 2 }, "cliffsDelta"],
      [{ target: "difference", cliffsDelta: 0.3, meanDifference: 1, sd: 2 }, "meanDifference"],
      [{ target: "pairwise", winProbability: 0.4 }, "winProbability"],
      [{ target: "icc", expected: 0.7, graders: 3, ciWidth: 0.2, extra: 1 }, ""],
      [{ target: "nonsense" }, "target"],
    ];
    for (const [body, path] of cases) {
      const r = await post(lead.token, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(r.body.details), JSON.stringify(body)).toContain(path);
    }
    expect((await post(lead.token, "{not json")).status).toBe(400);
    // A difference too small to detect within the searched sizes is refused, not a stuck request.
    const tiny = await post(lead.token, { target: "difference", cliffsDelta: 0.001, replicates: 200 });
    expect(tiny.status).toBe(422);
    expect(tiny.body.error).toMatch(/more than 2000 answers per model/);
  }, 60_000);

  it("is for leads and admins", async () => {
    const grader = await makeUser("GRADER");
    expect((await post(grader.token, { target: "icc", expected: 0.7, graders: 3, ciWidth: 0.2 })).status).toBe(403);
    const admin = await makeUser("ADMIN");
    expect((await post(admin.token, { target: "icc", expected: 0.7, graders: 3, ciWidth: 0.2 })).status).toBe(200);
  });
});
