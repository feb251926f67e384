import { describe, expect, it } from "vitest";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { getAssignmentForGrader, listMyAssignments, saveGrades } from "@/lib/grading/service";
import { ApiError } from "@/lib/errors/api-error";
import { useIsolatedDatabase } from "./helpers/db";
import { form, GOOD_SAFE, makeGradableStudy, twoStudiesSharingGraders } from "./helpers/study-fixture";

useIsolatedDatabase();

/**
 * Where an assignment sits in the grader's queue (done / total, its position,
 * the next one to grade) comes from one SQL statement per page view: these
 * pin its meaning against the queue the grader sees.
 */
describe("the grader's place in their queue", () => {
  it("counts position, done and total over the grader's own work, and the next unfinished one wraps around", async () => {
    const f = await makeGradableStudy({ items: 2, graders: 2 });
    await assignGraders(f.study.id, { seed: "queue" }, f.lead.id);
    const [g, other] = f.graders;
    const q = await listMyAssignments(g.id);
    expect(q).toHaveLength(6);

    for (const [i, a] of q.entries()) {
      const v = await getAssignmentForGrader(g.id, a.id);
      expect(v.progress).toEqual({ done: 0, total: 6, position: i + 1 });
      expect(v.nextAssignmentId).toBe(q[(i + 1) % q.length].id);
    }

    // Submitting the second one: it is done, and no longer anyone's "next".
    const r = await saveGrades(g.id, q[1].id, { scores: form({ score: [4, 4, 4, 4, 4], safe: GOOD_SAFE }), submit: true });
    expect(r.nextAssignmentId).toBe(q[2].id);
    const first = await getAssignmentForGrader(g.id, q[0].id);
    expect(first.progress).toEqual({ done: 1, total: 6, position: 1 });
    expect(first.nextAssignmentId).toBe(q[2].id);
    // From the last one, the next wraps to the first unfinished one.
    expect((await getAssignmentForGrader(g.id, q[5].id)).nextAssignmentId).toBe(q[0].id);

    // Someone else's assignment is not there at all.
    const theirs = (await listMyAssignments(other.id))[0];
    await expect(getAssignmentForGrader(g.id, theirs.id)).rejects.toMatchObject({ status: 404 });
    await expect(getAssignmentForGrader(g.id, "not-a-uuid")).rejects.toBeInstanceOf(ApiError);
  });

  it("a closed study's work counts in the queue but is never next; a cancelled one and a study the grader left do not count", async () => {
    const db = getDb();
    const { second: closed, graders: [g] } = await twoStudiesSharingGraders();
    await db.study.update({ where: { id: closed.study.id }, data: { status: "CLOSED" } });

    const q = await listMyAssignments(g.id);
    expect(q).toHaveLength(6);
    const openIds = new Set(q.filter((a) => a.studyOpen).map((a) => a.id));
    for (const a of q) {
      const v = await getAssignmentForGrader(g.id, a.id);
      // "Set n of N" counts the set's own study (issue 31, item 11): 3 of the 6.
      expect(v.progress.total).toBe(3);
      expect(v.readOnly).toBe(!a.studyOpen);
      expect(openIds.has(v.nextAssignmentId!)).toBe(true);
      expect(v.nextAssignmentId).not.toBe(a.id);
    }

    // One cancelled assignment leaves the queue.
    const cancelled = [...openIds][0];
    await db.assignment.update({ where: { id: cancelled }, data: { status: "CANCELLED" } });
    const still = q.find((a) => a.id !== cancelled && a.studyOpen)!;
    expect((await getAssignmentForGrader(g.id, still.id)).progress.total).toBe(2);
    await expect(getAssignmentForGrader(g.id, cancelled)).rejects.toMatchObject({ status: 404 });

    // Leaving the closed study takes its work out of the queue at once (the other study's count never held it).
    await db.studyMember.update({ where: { studyId_userId: { studyId: closed.study.id, userId: g.id } }, data: { active: false } });
    expect((await getAssignmentForGrader(g.id, still.id)).progress.total).toBe(2);
    const gone = q.find((a) => !a.studyOpen)!;
    await expect(getAssignmentForGrader(g.id, gone.id)).rejects.toMatchObject({ status: 404 });
  });

  it("a grader who left a study can no longer save to its assignments, though other studies' work is still theirs", async () => {
    const db = getDb();
    const { first: left, second: kept, graders: [g] } = await twoStudiesSharingGraders();
    const theirs = (await listMyAssignments(g.id)).map((a) => a.id);
    const gone = (await db.assignment.findFirst({ where: { graderId: g.id, studyId: left.study.id } }))!.id;
    const still = (await db.assignment.findFirst({ where: { graderId: g.id, studyId: kept.study.id } }))!.id;
    expect(theirs).toContain(gone);

    await db.studyMember.update({ where: { studyId_userId: { studyId: left.study.id, userId: g.id } }, data: { active: false } });
    const body = { scores: form({ score: [4, 4, 4, 4, 4], safe: GOOD_SAFE }), submit: true };
    await expect(saveGrades(g.id, gone, body)).rejects.toMatchObject({ status: 404 });
    expect((await db.assignment.findUniqueOrThrow({ where: { id: gone } })).status).toBe("PENDING");
    expect((await saveGrades(g.id, still, body)).status).toBe("SUBMITTED");
  });
});
