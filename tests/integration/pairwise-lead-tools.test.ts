/**
 * A lead's tools on a pairwise study, as on a scoring one: the frozen protocol fixes the dealing
 * seed; comparison escalations are listed and their adjudicator reassigned; a departing grader's
 * open comparisons count in the open-work figure and are dealt again.
 */
import { describe, expect, it } from "vitest";
import { POST as freeze } from "@/app/api/v1/studies/[id]/protocol/route";
import { POST as dealRoute } from "@/app/api/v1/studies/[id]/comparison-assignments/route";
import { POST as planPost } from "@/app/api/v1/studies/[id]/comparisons/route";
import { getDb } from "@/lib/db/client";
import { bearer, call } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makePairwiseStudy } from "./helpers/pairwise-fixture";

useIsolatedDatabase();

type Fixture = Awaited<ReturnType<typeof makePairwiseStudy>>;
const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body) });
const plan = (f: Fixture) => call(planPost, "/x", json(f.lead.token, "POST", { design: { kind: "all_pairs" }, seed: "s1" }), { id: f.study.id });
const deal = (f: Fixture, body: unknown = {}) => call(dealRoute, "/x", json(f.lead.token, "POST", body), { id: f.study.id });

describe("the frozen protocol on a pairwise study", () => {
  it("deals with the frozen seed, refuses another, and cannot be frozen once comparisons are dealt", async () => {
    const f = await makePairwiseStudy({ items: 3, models: 2, n: 1, graders: 3 });
    expect((await plan(f)).status).toBe(200);
    const frozen = await call(freeze, "/x", json(f.lead.token, "POST", { assignmentSeed: "pw-2026", plannedAnalyses: { primaryOutcome: "Win rate", statistics: ["Bradley-Terry"], multiplicity: "holm" } }), { id: f.study.id });
    expect(frozen.status, JSON.stringify(frozen.body)).toBe(200);
    const other = await deal(f, { seed: "another" });
    expect(other.status).toBe(409);
    expect(other.body.error).toMatch(/fixes the assignment seed to "pw-2026"/);
    expect(await getDb().comparisonAssignment.count({ where: { studyId: f.study.id } })).toBe(0);
    const specialty = await deal(f, { matchSpecialty: !f.study.matchSpecialty });
    expect(specialty.status).toBe(409);
    const ok = await deal(f);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.seed).toBe("pw-2026");

    const g = await makePairwiseStudy({ items: 2, models: 2, n: 1, graders: 2 });
    expect((await plan(g)).status).toBe(200);
    expect((await deal(g)).status).toBe(200);
    const late = await call(freeze, "/x", json(g.lead.token, "POST", { assignmentSeed: "late", plannedAnalyses: { primaryOutcome: "Win rate", statistics: ["Bradley-Terry"], multiplicity: "holm" } }), { id: g.study.id });
    expect(late.status).toBe(409);
  });
});
