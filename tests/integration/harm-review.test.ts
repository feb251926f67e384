import { describe, expect, it } from "vitest";
import { GET as listFlags } from "@/app/api/v1/studies/[id]/harm-flags/route";
import { PATCH as reviewFlag } from "@/app/api/v1/studies/[id]/harm-flags/[assignmentId]/route";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { saveGrades } from "@/lib/grading/service";
import { openHarmFlagCounts } from "@/lib/harm/service";
import { graderPseudonym } from "@/lib/users/pseudonym";
import { bearer, call } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { form, makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

type Flag = { assignmentId: string; externalId: string; model: string; grader: string; submitted: boolean; comment: string; scores: { dimension: string; score: number }[]; review: { status: string; note: string | null; reviewer: string | null } };

async function flaggedStudy() {
  const f = await makeGradableStudy({ items: 2, models: 1, graders: 2, rubrics: ["SCORE"] });
  await assignGraders(f.study.id, { seed: "harm" }, f.lead.id);
  const work = await getDb().assignment.findMany({ where: { studyId: f.study.id }, orderBy: [{ graderId: "asc" }, { position: "asc" }] });
  const [a1, a2, a3] = work;
  // Submitted with a flag; a draft with a flag; submitted without one.
  await saveGrades(a1.graderId, a1.id, { scores: form({ score: [1, 3, 3, 3, 3] }), submit: true, harm: { flag: true, comment: "Advises stopping anticoagulation abruptly" } });
  await saveGrades(a2.graderId, a2.id, { scores: form({ score: [2, 3, 3, 3, 3] }).slice(0, 1), submit: false, harm: { flag: true, comment: "Wrong dose" } });
  await saveGrades(a3.graderId, a3.id, { scores: form({ score: [4, 4, 4, 4, 4] }), submit: true });
  return { f, a1, a2, a3 };
}

const list = (token: string, studyId: string, query = "") => call(listFlags, `/x${query}`, bearer(token), { id: studyId });
const review = (token: string, studyId: string, assignmentId: string, body: unknown) =>
  call(reviewFlag, "/x", bearer(token, { method: "PATCH", body: JSON.stringify(body) }), { id: studyId, assignmentId });

describe("harm review: every flag a grader raises reaches the lead", () => {
  it("lists submitted and draft flags with the set, the grader's pseudonym and scores, open until reviewed; counts open ones", async () => {
    const { f, a1, a2 } = await flaggedStudy();
    const r = await list(f.lead.token, f.study.id);
    expect(r.status).toBe(200);
    const flags = r.body.flags as Flag[];
    expect(flags.map((x) => x.assignmentId).sort()).toEqual([a1.id, a2.id].sort());
    const submitted = flags.find((x) => x.assignmentId === a1.id)!;
    expect(submitted).toMatchObject({
      submitted: true,
      comment: "Advises stopping anticoagulation abruptly",
      grader: graderPseudonym(f.study.id, a1.graderId),
      model: f.models[0].name,
      review: { status: "OPEN", note: null, reviewer: null },
    });
    expect(submitted.scores).toEqual(expect.arrayContaining([expect.objectContaining({ dimension: "safety", score: 1 })]));
    expect(JSON.stringify(flags)).not.toContain(a1.graderId); // pseudonymous, not the account
    expect(flags.find((x) => x.assignmentId === a2.id)).toMatchObject({ submitted: false, comment: "Wrong dose" });
    expect((await openHarmFlagCounts([f.study.id])).get(f.study.id)).toBe(2);
  });

  it("acknowledging or resolving needs a note; the review is audited with before and after; the filter and the count follow", async () => {
    const { f, a1 } = await flaggedStudy();
    const noNote = await review(f.lead.token, f.study.id, a1.id, { status: "RESOLVED" });
    expect(noNote.status).toBe(422);
    expect(JSON.stringify(noNote.body)).toMatch(/note/);
    const ok = await review(f.lead.token, f.study.id, a1.id, { status: "ACKNOWLEDGED", note: "Discussed with the grader; escalated to the safety board" });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ review: { status: "ACKNOWLEDGED", note: "Discussed with the grader; escalated to the safety board", reviewer: f.lead.name } });
    const resolved = await review(f.lead.token, f.study.id, a1.id, { status: "RESOLVED", note: "Model excluded from deployment" });
    expect(resolved.status).toBe(200);
    const events = await getDb().auditEvent.findMany({ where: { action: "harm.review", entityId: a1.id }, orderBy: { id: "asc" } });
    expect(events.map((e) => [e.before, e.after])).toEqual([
      [{ status: "OPEN", note: null }, { status: "ACKNOWLEDGED", note: "Discussed with the grader; escalated to the safety board" }],
      [{ status: "ACKNOWLEDGED", note: "Discussed with the grader; escalated to the safety board" }, { status: "RESOLVED", note: "Model excluded from deployment" }],
    ]);
    expect(((await list(f.lead.token, f.study.id, "?review=RESOLVED")).body.flags as Flag[]).map((x) => x.assignmentId)).toEqual([a1.id]);
    expect(((await list(f.lead.token, f.study.id, "?review=OPEN")).body.flags as Flag[]).map((x) => x.assignmentId)).not.toContain(a1.id);
    expect((await list(f.lead.token, f.study.id, "?review=MAYBE")).status).toBe(422);
    expect((await openHarmFlagCounts([f.study.id])).get(f.study.id)).toBe(1);
  });

  it("a lead cannot review another study's flag, nor an assignment without a flag, through their own study", async () => {
    const { f, a3 } = await flaggedStudy();
    const other = await flaggedStudy();
    const foreign = await review(f.lead.token, f.study.id, other.a1.id, { status: "ACKNOWLEDGED", note: "x" });
    expect(foreign.status).toBe(404);
    expect((await review(f.lead.token, f.study.id, a3.id, { status: "ACKNOWLEDGED", note: "x" })).status).toBe(404);
    expect((await review(f.lead.token, f.study.id, "not-a-uuid", { status: "ACKNOWLEDGED", note: "x" })).status).toBe(404);
    const touched = [other.a1.id, a3.id];
    expect(await getDb().harmReview.count({ where: { assignmentId: { in: touched } } })).toBe(0);
    expect(await getDb().auditEvent.count({ where: { action: "harm.review", entityId: { in: touched } } })).toBe(0);
  });

  it("two reviews of one flag at once, many rounds: both recorded, each audited against what the other left", async () => {
    const { f, a1 } = await flaggedStudy();
    for (let round = 0; round < 10; round++) {
      const [x, y] = await Promise.all([
        review(f.lead.token, f.study.id, a1.id, { status: "ACKNOWLEDGED", note: `ack ${round}` }),
        review(f.lead.token, f.study.id, a1.id, { status: "RESOLVED", note: `done ${round}` }),
      ]);
      expect([x.status, y.status]).toEqual([200, 200]);
    }
    const events = await getDb().auditEvent.findMany({ where: { action: "harm.review", entityId: a1.id }, orderBy: { id: "asc" } });
    expect(events).toHaveLength(20);
    // A chain: each event's before is the previous event's after.
    for (let i = 1; i < events.length; i++) expect(events[i].before).toEqual(events[i - 1].after);
    const row = await getDb().harmReview.findUniqueOrThrow({ where: { assignmentId: a1.id } });
    expect({ status: row.status, note: row.note }).toEqual(events[19].after);
  });

  it("the summary export counts each model's flags, flagged sets and unreviewed flags, per specialty and in all", async () => {
    const { f, a1 } = await flaggedStudy();
    expect((await review(f.lead.token, f.study.id, a1.id, { status: "RESOLVED", note: "Done" })).status).toBe(200);
    const json = await call(exportRoute, "/x?dataset=summary&format=json", bearer(f.lead.token), { id: f.study.id });
    expect(json.status).toBe(200);
    const model = f.models[0].name;
    // Two flags on two sets (one of them still in a draft); the one resolved above no longer counts as unreviewed.
    const flagged = await getDb().assignment.findMany({ where: { studyId: f.study.id, harmFlag: true }, include: { responseSet: { include: { item: { include: { specialty: true } } } } } });
    expect(flagged).toHaveLength(2);
    const bySpecialty = new Map<string, { flags: number; unreviewed: number }>();
    for (const a of flagged) {
      const sp = a.responseSet.item.specialty.name;
      const cur = bySpecialty.get(sp) ?? { flags: 0, unreviewed: 0 };
      bySpecialty.set(sp, { flags: cur.flags + 1, unreviewed: cur.unreviewed + (a.id === a1.id ? 0 : 1) });
    }
    const expected = [
      ...[...bySpecialty].sort(([a], [b]) => a.localeCompare(b)).map(([specialty, c]) => ({ specialty, model, flags: c.flags, flaggedSets: c.flags, unreviewed: c.unreviewed })),
      { specialty: "All specialties", model, flags: 2, flaggedSets: 2, unreviewed: 1 },
    ];
    expect((json.body as unknown as { harmFlags: unknown[] }).harmFlags).toEqual(expected);
    const csv = await call(exportRoute, "/x?dataset=summary&format=csv", bearer(f.lead.token), { id: f.study.id });
    const lines = String(csv.body).split(/\r?\n/).filter((l) => l.startsWith("harm_flags,All specialties"));
    expect(lines).toEqual([
      `harm_flags,All specialties,,${model},flags,2,,,,,,,,,,,,,,,`,
      `harm_flags,All specialties,,${model},flagged_sets,2,,,,,,,,,,,,,,,`,
      `harm_flags,All specialties,,${model},unreviewed,1,,,,,,,,,,,,,,,`,
    ]);
  });
});
