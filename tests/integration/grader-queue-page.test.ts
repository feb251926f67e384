import { describe, expect, it } from "vitest";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { listMyAssignments } from "@/lib/grading/service";
import { setLetter } from "@/lib/queue/params";
import { listQueuePage, listQueueStudies } from "@/lib/queue/queries";
import { useIsolatedDatabase } from "./helpers/db";
import { makeGradableStudy, MODEL_NAMES, twoStudiesSharingGraders } from "./helpers/study-fixture";

useIsolatedDatabase();

describe("the grader queue, one study and one page at a time", () => {
  it("groups by study with progress, pages and filters by status, and letters a question's sets in the grader's own order", async () => {
    const db = getDb();
    const f = await makeGradableStudy({ items: 4, graders: 2, k: 2 });
    await assignGraders(f.study.id, { seed: "q" }, f.lead.id);
    const [g, other] = f.graders;
    const all = await listMyAssignments(g.id);
    expect(all).toHaveLength(12);

    const [study] = await listQueueStudies(g.id);
    expect(study).toMatchObject({ id: f.study.id, open: true, total: 12, submitted: 0, drafts: 0, nextId: all[0].id });
    expect(study.title).not.toBe(f.study.name);

    // Pages in the grader's order, numbered across pages.
    const p1 = await listQueuePage(g.id, f.study.id, { page: 1, pageSize: 5 });
    const p3 = await listQueuePage(g.id, f.study.id, { page: 3, pageSize: 5 });
    expect(p1.total).toBe(12);
    expect(p1.rows.map((r) => r.id)).toEqual(all.slice(0, 5).map((a) => a.id));
    expect(p3.rows.map((r) => r.number)).toEqual([11, 12]);
    expect((await listQueuePage(g.id, f.study.id, { page: 9, pageSize: 5 })).total).toBe(12);

    // Letters: the n-th set of a question in the grader's order is "Set <n>", so it follows no model order.
    const rows = [...p1.rows, ...(await listQueuePage(g.id, f.study.id, { page: 2, pageSize: 5 })).rows, ...p3.rows];
    const byQuestion = new Map<string, string[]>();
    for (const r of rows) byQuestion.set(r.question, [...(byQuestion.get(r.question) ?? []), r.setLabel!]);
    for (const labels of byQuestion.values()) expect(labels).toEqual(["Set A", "Set B", "Set C"]);
    for (const r of rows) for (const m of MODEL_NAMES) expect(JSON.stringify(r)).not.toContain(m);
    // Two graders' letters do not both follow the model's order (blinding): some set has different letters for them.
    const theirs = new Map<string, string>();
    for (let p = 1; p <= 3; p++) for (const r of (await listQueuePage(other.id, f.study.id, { page: p, pageSize: 5 })).rows) theirs.set(r.question + r.setLabel, r.id);
    const setOf = async (id: string) => (await db.assignment.findUniqueOrThrow({ where: { id } })).responseSetId;
    let differs = false;
    for (const r of rows) if ((await setOf(r.id)) !== (await setOf(theirs.get(r.question + r.setLabel)!))) differs = true;
    expect(differs).toBe(true);

    // A draft and a submission: the status filter keeps each set's number and letter.
    await db.assignment.update({ where: { id: all[2].id }, data: { status: "IN_PROGRESS" } });
    await db.assignment.update({ where: { id: all[4].id }, data: { status: "SUBMITTED" } });
    const drafts = await listQueuePage(g.id, f.study.id, { status: "draft", page: 1, pageSize: 25 });
    expect(drafts.total).toBe(1);
    expect(drafts.rows[0]).toMatchObject({ id: all[2].id, number: 3, setLabel: rows[2].setLabel });
    expect((await listQueuePage(g.id, f.study.id, { status: "submitted", page: 1, pageSize: 25 })).rows.map((r) => r.id)).toEqual([all[4].id]);
    expect((await listQueuePage(g.id, f.study.id, { status: "todo", page: 1, pageSize: 25 })).total).toBe(10);
    const [after] = await listQueueStudies(g.id);
    expect(after).toMatchObject({ submitted: 1, drafts: 1, nextId: all[2].id });

    // Another grader's study id shows nothing of theirs; a foreign grader reads nothing of g's.
    const stranger = await makeGradableStudy({ items: 1, graders: 1 });
    expect((await listQueuePage(stranger.graders[0].id, f.study.id, { page: 1, pageSize: 25 })).total).toBe(0);
  });

  it("lists several studies, open ones with work first, a closed one never next", async () => {
    const db = getDb();
    const { first: a, second: b, graders: [g] } = await twoStudiesSharingGraders();
    await db.study.update({ where: { id: a.study.id }, data: { status: "CLOSED" } });
    const studies = await listQueueStudies(g.id);
    expect(studies.map((s) => [s.id, s.open, s.nextId !== null])).toEqual([
      [b.study.id, true, true],
      [a.study.id, false, false],
    ]);
    expect((await listQueuePage(g.id, a.study.id, { page: 1, pageSize: 25 })).rows.every((r) => !r.studyOpen)).toBe(true);
  });

  it("letters past Z", () => {
    expect([1, 2, 26, 27, 28, 52, 53].map(setLetter)).toEqual(["A", "B", "Z", "AA", "AB", "AZ", "BA"]);
  });
});
