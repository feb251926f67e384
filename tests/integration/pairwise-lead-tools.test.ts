/**
 * A lead's tools on a pairwise study, as on a scoring one: the frozen protocol fixes the dealing
 * seed; comparison escalations are listed and their adjudicator reassigned; a departing grader's
 * open comparisons count in the open-work figure and are dealt again.
 */
import { describe, expect, it } from "vitest";
import { POST as freeze } from "@/app/api/v1/studies/[id]/protocol/route";
import { POST as dealRoute } from "@/app/api/v1/studies/[id]/comparison-assignments/route";
import { POST as planPost } from "@/app/api/v1/studies/[id]/comparisons/route";
import { POST as postSubmit } from "@/app/api/v1/comparison-assignments/[id]/submit/route";
import { POST as assignEscalation } from "@/app/api/v1/comparison-escalations/[id]/assign/route";
import { GET as listEscalations } from "@/app/api/v1/studies/[id]/comparison-escalations/route";
import { DELETE as removeGrader } from "@/app/api/v1/studies/[id]/graders/[userId]/route";
import { getDb } from "@/lib/db/client";
import { openWorkOf } from "@/lib/users/open-work";
import { graderPseudonym } from "@/lib/users/pseudonym";
import { bearer, call } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makePairwiseStudy } from "./helpers/pairwise-fixture";

useIsolatedDatabase();

type Fixture = Awaited<ReturnType<typeof makePairwiseStudy>>;
const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body) });
const plan = (f: Fixture) => call(planPost, "/x", json(f.lead.token, "POST", { design: { kind: "all_pairs" }, seed: "s1" }), { id: f.study.id });
const deal = (f: Fixture, body: unknown = {}) => call(dealRoute, "/x", json(f.lead.token, "POST", body), { id: f.study.id });
const submit = (token: string, id: string, choice: "a" | "b") =>
  call(postSubmit, "/x", json(token, "POST", { preferences: ["factuality", "clinical_relevance", "conciseness"].map((axis) => ({ rubric: "clever_preference", axis, choice })) }), { id });
const open = (comparisonId: string) => getDb().comparisonAssignment.findMany({ where: { comparisonId, status: { in: ["PENDING", "IN_PROGRESS"] } } });

/** A planned, dealt study whose first comparison escalated (its two primaries preferred opposite answers). */
async function escalated(graders = 4, items = 2) {
  const f = await makePairwiseStudy({ items, models: 2, n: 1, graders });
  expect((await plan(f)).status).toBe(200);
  expect((await deal(f)).status).toBe(200);
  const [c1] = await getDb().comparison.findMany({ where: { studyId: f.study.id }, orderBy: { id: "asc" } });
  const [p1, p2] = await getDb().comparisonAssignment.findMany({ where: { comparisonId: c1.id, kind: "PRIMARY" }, orderBy: { graderId: "asc" } });
  const tokenOf = (id: string) => f.graders.find((g) => g.id === id)!.token;
  expect((await submit(tokenOf(p1.graderId), p1.id, "a")).status).toBe(200);
  expect((await submit(tokenOf(p2.graderId), p2.id, "b")).status).toBe(200);
  const esc = await getDb().comparisonEscalation.findUniqueOrThrow({ where: { comparisonId: c1.id }, include: { adjudicatorAssignment: true } });
  expect(esc.status).toBe("ASSIGNED");
  return { f, c1, primaries: [p1, p2], esc };
}

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

describe("comparison escalations in the lead's hands", () => {
  it("lists each disagreement under pseudonyms and lets the lead hand the adjudication to another grader", async () => {
    const { f, c1, primaries, esc } = await escalated(4);
    const listed = await call(listEscalations, "/x", bearer(f.lead.token), { id: f.study.id });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const [row] = listed.body.escalations as { id: string; status: string; axes: { axis: string; choices: { grader: string; choice: string }[] }[]; adjudicator: { id: string } }[];
    expect(row).toMatchObject({ id: esc.id, status: "ASSIGNED", adjudicator: { id: esc.adjudicatorAssignment!.graderId } });
    expect(row.axes.map((a) => a.axis)).toEqual(["factuality", "clinical_relevance", "conciseness"]);
    expect(row.axes[0].choices.map((c) => c.grader).sort()).toEqual(primaries.map((p) => graderPseudonym(f.study.id, p.graderId)).sort());
    expect(JSON.stringify(row)).not.toContain(f.graders[0].email);
    const filtered = await call(listEscalations, "/x?status=RESOLVED", bearer(f.lead.token), { id: f.study.id });
    expect(filtered.body.escalations).toEqual([]);

    const assign = (graderId: string, token = f.lead.token) => call(assignEscalation, "/x", json(token, "POST", { graderId }), { id: esc.id });
    expect((await assign(primaries[0].graderId)).status).toBe(409);
    expect((await assign(f.lead.id)).status).toBe(422);
    expect((await assign(f.graders[0].id, f.graders[0].token)).status).toBe(403);
    const fourth = f.graders.find((g) => g.id !== esc.adjudicatorAssignment!.graderId && !primaries.some((p) => p.graderId === g.id))!;
    const ok = await assign(fourth.id);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await getDb().comparisonAssignment.findUniqueOrThrow({ where: { id: esc.adjudicatorAssignment!.id } })).status).toBe("CANCELLED");
    const now = await getDb().comparisonEscalation.findUniqueOrThrow({ where: { id: esc.id }, include: { adjudicatorAssignment: true } });
    expect(now).toMatchObject({ status: "ASSIGNED", adjudicatorAssignment: { graderId: fourth.id, status: "PENDING", kind: "ADJUDICATOR" } });
    expect((await open(c1.id)).map((a) => a.graderId)).toEqual([fourth.id]);
  });
});

describe("a grader who leaves a pairwise study", () => {
  it("counts their open comparisons in the open-work figure; the next deal gives them, and their adjudication, to others", async () => {
    const { f, esc } = await escalated(4, 4);
    const adjudicator = esc.adjudicatorAssignment!.graderId;
    const held = await getDb().comparisonAssignment.count({ where: { studyId: f.study.id, graderId: adjudicator, status: { in: ["PENDING", "IN_PROGRESS"] } } });
    expect(held).toBeGreaterThan(1);
    // The account's open work (an admin deactivating it sees the same figure).
    expect((await openWorkOf(getDb(), [adjudicator])).get(adjudicator)).toEqual([{ studyId: f.study.id, studyName: f.study.name, openAssignments: held, openAdjudications: 1 }]);
    const removed = await call(removeGrader, "/x", bearer(f.lead.token, { method: "DELETE" }), { id: f.study.id, userId: adjudicator });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body).toMatchObject({ openAssignments: held, openAdjudications: 1 });

    const again = await deal(f);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.reassigned).toBe(held);
    expect(await getDb().comparisonAssignment.count({ where: { studyId: f.study.id, graderId: adjudicator, status: { in: ["PENDING", "IN_PROGRESS"] } } })).toBe(0);
    const after = await getDb().comparisonEscalation.findUniqueOrThrow({ where: { id: esc.id }, include: { adjudicatorAssignment: true } });
    expect(after.status).toBe("ASSIGNED");
    expect(after.adjudicatorAssignment!.graderId).not.toBe(adjudicator);
    expect(after.adjudicatorAssignment!.status).toBe("PENDING");
    // Every comparison still has k primaries at work or done.
    for (const c of await getDb().comparison.findMany({ where: { studyId: f.study.id } })) {
      expect(await getDb().comparisonAssignment.count({ where: { comparisonId: c.id, kind: "PRIMARY", status: { not: "CANCELLED" } } })).toBe(f.study.gradersPerSet);
    }
  });
});
