/**
 * The frozen protocol (issue #36 item 2): frozen before the first assignment, stored as canonical
 * JSON with its SHA-256 (key order does not change it), downloadable byte for byte; a later change
 * of a frozen setting refused without a reason and recorded as a dated, audited amendment with
 * one; the assignment runs with the frozen seed and design.
 */
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { GET as getProtocol, POST as freeze } from "@/app/api/v1/studies/[id]/protocol/route";
import { PATCH as patchStudy } from "@/app/api/v1/studies/[id]/route";
import { POST as assign } from "@/app/api/v1/studies/[id]/assignments/route";
import { getDb } from "@/lib/db/client";
import { canonicalJson } from "@/lib/protocol/canonical";
import { ProtocolState } from "@/lib/protocol/contract";
import type { RubricDocument } from "@/lib/rubrics/document";
import { bearer, call as callRoute, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });
const call = async <P,>(handler: (req: Request, ctx: { params: Promise<P> }) => Promise<Response>, url: string, init?: RequestInit, params?: P) =>
  (await callRoute(handler, url, init, params)) as { status: number; body: Body; headers: Headers };

const likert = { kind: "ordinal" as const, levels: [1, 2, 3, 4, 5].map((value) => ({ value, label: String(value) })) };
const OWN: RubricDocument = {
  key: "ward_survey",
  name: "Ward survey",
  version: 2,
  dimensions: [
    { key: "usefulness", name: "Usefulness", scope: "each_answer", scale: { ...likert, allowNA: true }, escalation: { rule: "spread", threshold: 2 } },
    { key: "source", name: "Who wrote it", scope: "first_answer", scale: { kind: "nominal", levels: [{ value: "ai", label: "AI" }, { value: "human", label: "Human" }] }, escalation: { rule: "never" } },
  ],
  totals: [],
};
const PLANNED = {
  assignmentSeed: "ward-2026",
  plannedAnalyses: { primaryOutcome: "Mean usefulness per model", statistics: ["Cliff's delta with bootstrap 95% CI", "Gwet's AC2 (quadratic)"], multiplicity: "holm" },
  planner: [{ target: "icc", sets: 47 }],
};

async function frozenStudy() {
  const f = await makeGradableStudy({ rubrics: [OWN], items: 3, models: 2, n: 1, graders: 2 });
  const r = await call(freeze, "/x", json(f.lead.token, "POST", PLANNED), { id: f.study.id });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { f, state: r.body };
}

describe("canonical JSON", () => {
  it("does not depend on key order, keeps array order, refuses NaN", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: "x" } })).toBe('{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(/NaN/);
  });
});

describe("freezing the protocol", () => {
  it("stores the design and plan as canonical JSON with its SHA-256, downloadable byte for byte", async () => {
    const { f, state } = await frozenStudy();
    ProtocolState.parse(state);
    expect(state.frozen).toBe(true);
    expect(state.protocol.rubrics[0].key).toBe("ward_survey");
    expect(state.protocol.design).toMatchObject({ repetitions: 1, gradersPerSet: 2, assignmentSeed: "ward-2026" });
    expect(state.protocol.plannedAnalyses.multiplicity).toBe("holm");
    expect(state.protocol.software.name).toBe("Clingrade");
    // The hash is of the canonical text: reordering the document's keys gives the same hash.
    const reordered = Object.fromEntries(Object.entries(state.protocol).reverse());
    expect(createHash("sha256").update(canonicalJson(reordered)).digest("hex")).toBe(state.sha256);
    const dl = await callRoute(getProtocol, `/api/v1/studies/${f.study.id}/protocol?download=1`, bearer(f.lead.token), { id: f.study.id });
    expect(dl.status).toBe(200);
    expect(dl.headers.get("content-disposition")).toMatch(/attachment; filename="protocol-[0-9a-f]{12}\.json"/);
    expect(createHash("sha256").update(JSON.stringify(dl.body)).digest("hex")).toBe(state.sha256);
    const audit = await getDb().auditEvent.findMany({ where: { studyId: f.study.id, action: "protocol.freeze" } });
    expect(audit).toHaveLength(1);
    expect((audit[0].after as Body).sha256).toBe(state.sha256);
    // Frozen once.
    const again = await call(freeze, "/x", json(f.lead.token, "POST", PLANNED), { id: f.study.id });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/was frozen on/);
  });

  it("is refused after the first assignment, and for graders and other leads", async () => {
    const f = await makeGradableStudy({ rubrics: [OWN], items: 2, models: 2, n: 1, graders: 2 });
    const grader = await call(freeze, "/x", json(f.graders[0].token, "POST", PLANNED), { id: f.study.id });
    expect(grader.status).toBe(403);
    const other = await makeUser("LEAD");
    expect((await call(freeze, "/x", json(other.token, "POST", PLANNED), { id: f.study.id })).status).toBe(404);
    expect((await call(getProtocol, "/x", bearer(other.token), { id: f.study.id })).status).toBe(404);
    const bad = await call(freeze, "/x", json(f.lead.token, "POST", { ...PLANNED, plannedAnalyses: { ...PLANNED.plannedAnalyses, multiplicity: "fdr-ish" } }), { id: f.study.id });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.details)).toContain("plannedAnalyses.multiplicity");
    expect((await call(assign, "/x", json(f.lead.token, "POST", { seed: "s" }), { id: f.study.id })).status).toBe(200);
    const late = await call(freeze, "/x", json(f.lead.token, "POST", PLANNED), { id: f.study.id });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatch(/before the first assignment/);
    expect(await getDb().studyProtocol.count({ where: { studyId: f.study.id } })).toBe(0);
  });
});

describe("after freezing", () => {
  it("refuses a frozen setting's change without a reason and records it as an amendment with one", async () => {
    const { f, state } = await frozenStudy();
    const refused = await call(patchStudy, "/x", json(f.lead.token, "PATCH", { gradersPerSet: 3 }), { id: f.study.id });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/gradersPerSet is part of it; send amendmentReason/);
    expect((await getDb().study.findUniqueOrThrow({ where: { id: f.study.id } })).gradersPerSet).toBe(2);
    // A setting outside the protocol changes freely.
    expect((await call(patchStudy, "/x", json(f.lead.token, "PATCH", { description: "Now with a description" }), { id: f.study.id })).status).toBe(200);
    const amended = await call(patchStudy, "/x", json(f.lead.token, "PATCH", { gradersPerSet: 3, amendmentReason: "A third grader joined the ward" }), { id: f.study.id });
    expect(amended.status, JSON.stringify(amended.body)).toBe(200);
    const after = (await call(getProtocol, "/x", bearer(f.lead.token), { id: f.study.id })).body;
    expect(after.sha256).toBe(state.sha256);
    expect(after.protocol).toEqual(state.protocol);
    expect(after.amendments).toHaveLength(1);
    expect(after.amendments[0]).toMatchObject({ fields: ["gradersPerSet"], before: { gradersPerSet: 2 }, after: { gradersPerSet: 3 }, reason: "A third grader joined the ward" });
    const audit = await getDb().auditEvent.findMany({ where: { studyId: f.study.id, action: "protocol.amend" } });
    expect(audit).toHaveLength(1);
    // Sending the same value back is no change, so no amendment.
    expect((await call(patchStudy, "/x", json(f.lead.token, "PATCH", { gradersPerSet: 3 }), { id: f.study.id })).status).toBe(200);
    expect(await getDb().protocolAmendment.count({ where: { studyId: f.study.id } })).toBe(1);
    // A reason alone is not a change.
    expect((await call(patchStudy, "/x", json(f.lead.token, "PATCH", { amendmentReason: "nothing" }), { id: f.study.id })).status).toBe(422);
  });

  it("assigns with the frozen seed and refuses another", async () => {
    const { f } = await frozenStudy();
    const other = await call(assign, "/x", json(f.lead.token, "POST", { seed: "another" }), { id: f.study.id });
    expect(other.status).toBe(409);
    expect(other.body.error).toMatch(/fixes the assignment seed to "ward-2026"/);
    const run = await call(assign, "/x", json(f.lead.token, "POST", {}), { id: f.study.id });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect((await getDb().study.findUniqueOrThrow({ where: { id: f.study.id } })).assignmentSeed).toBe("ward-2026");
  });
});
