import { describe, expect, it } from "vitest";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { POST as importRoute } from "@/app/api/v1/studies/[id]/import/route";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { getAssignmentForGrader } from "@/lib/grading/service";
import { listQueuePage, listQueueStudies } from "@/lib/queue/queries";
import { bearer, call, makeStudy, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { form, makeGradableStudy, twoStudiesSharingGraders } from "./helpers/study-fixture";

useIsolatedDatabase();

/**
 * Issue 31, items 8, 9 and 11: the order of a grader's work and what the
 * queue shows of each question. Third-grader sets hold up their set's final
 * scores, so they come first in the queue and are what "Continue" and the
 * next set after a submission open; "Set n of N" counts within the set's
 * study; the queue previews the lead's chosen part of the question (the
 * import's preview column), else its last paragraph.
 */
const put = (token: string, id: string, body: unknown) => call(putGrades, "/x", bearer(token, { method: "PUT", body: JSON.stringify(body) }), { id });

describe("the order of a grader's work", () => {
  it("puts third-grader sets first in the queue, in Continue and after a submission", async () => {
    const db = getDb();
    const f = await makeGradableStudy({ items: 3, models: 1, graders: 3, rubrics: ["SCORE"] });
    await assignGraders(f.study.id, { seed: "order" }, f.lead.id);
    const setId = f.sets[0].id;
    const primaries = await db.assignment.findMany({ where: { responseSetId: setId, kind: "PRIMARY" } });
    const third = f.graders.find((g) => !primaries.some((p) => p.graderId === g.id))!;
    const own = await db.assignment.findMany({ where: { graderId: third.id }, orderBy: { position: "asc" } });
    expect(own.map((a) => a.kind)).toEqual(["PRIMARY", "PRIMARY"]);

    // The set's two graders disagree on safety (5 against 1): the third grader is called.
    const tokenOf = (graderId: string) => f.graders.find((g) => g.id === graderId)!.token;
    for (const [i, p] of primaries.entries()) {
      const r = await put(tokenOf(p.graderId), p.id, { scores: form({ score: [i === 0 ? 5 : 1, 5, 5, 5, 5] }), submit: true });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const adj = await db.assignment.findFirstOrThrow({ where: { graderId: third.id, kind: "ADJUDICATOR" } });
    // Appended to the grader's order (its position is the last), it is still first in the queue.
    expect(adj.position).toBeGreaterThan(own[1].position);
    const page = await listQueuePage(third.id, f.study.id, { page: 1, pageSize: 25 });
    expect(page.rows.map((r) => [r.number, r.kind])).toEqual([
      [1, "ADJUDICATOR"],
      [2, "PRIMARY"],
      [3, "PRIMARY"],
    ]);
    expect(page.rows[0].id).toBe(adj.id);
    // "Continue" opens it before a draft.
    await db.assignment.update({ where: { id: own[1].id }, data: { status: "IN_PROGRESS" } });
    expect((await listQueueStudies(third.id))[0].nextId).toBe(adj.id);
    // The grading page counts in the same order.
    expect((await getAssignmentForGrader(third.id, adj.id)).progress).toEqual({ position: 1, total: 3, done: 0 });
    expect((await getAssignmentForGrader(third.id, own[0].id)).progress.position).toBe(2);
    // Submitting the first primary set leads to the waiting third grade, not to the next primary set.
    expect((await getAssignmentForGrader(third.id, own[0].id)).nextAssignmentId).toBe(adj.id);
    const saved = await put(third.token, own[0].id, { scores: form({ score: [4, 4, 4, 4, 4] }), submit: true });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.nextAssignmentId).toBe(adj.id);
  });

  it("counts Set n of N and the submitted sets within the set's study, not across studies", async () => {
    const { first, second, graders: [g] } = await twoStudiesSharingGraders();
    const db = getDb();
    const inFirst = await db.assignment.findMany({ where: { graderId: g.id, studyId: first.study.id }, orderBy: { position: "asc" } });
    const inSecond = await db.assignment.findMany({ where: { graderId: g.id, studyId: second.study.id }, orderBy: { position: "asc" } });
    expect(inFirst.length).toBe(3);
    expect(inSecond.length).toBe(3);
    // The first study's sets are graded one: the second study's count does not move.
    await db.assignment.update({ where: { id: inFirst[0].id }, data: { status: "SUBMITTED" } });
    const views = await Promise.all(inSecond.map((a) => getAssignmentForGrader(g.id, a.id)));
    expect(views.map((v) => v.progress)).toEqual([
      { position: 1, total: 3, done: 0 },
      { position: 2, total: 3, done: 0 },
      { position: 3, total: 3, done: 0 },
    ]);
    expect((await getAssignmentForGrader(g.id, inFirst[1].id)).progress).toEqual({ position: 2, total: 3, done: 1 });
    // After a study's last set, the next one still comes from the grader's other open study.
    for (const a of inSecond.slice(0, 2)) await db.assignment.update({ where: { id: a.id }, data: { status: "SUBMITTED" } });
    expect(inFirst.slice(1).map((a) => a.id)).toContain((await getAssignmentForGrader(g.id, inSecond[2].id)).nextAssignmentId);
  });
});

describe("the queue's preview of a question, chosen at import", () => {
  const HEADER = "item_id,specialty,question,reference_answer,preview,model,repetition,response";
  const cell = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const CONTEXT = "Patient: 64 y, breast cancer on capecitabine.\nLast labs: ANC 1.2, platelets 140.";
  const question = (ask: string) => `${CONTEXT}\n\n${ask}`;

  async function study() {
    const lead = await makeUser("LEAD");
    const grader = await makeUser("GRADER");
    const s = await makeStudy(lead.id, "Oncology portal");
    const db = getDb();
    await db.study.update({ where: { id: s.id }, data: { repetitions: 1, gradersPerSet: 1 } });
    await db.studyMember.create({ data: { studyId: s.id, userId: grader.id, role: "GRADER" } });
    const post = (body: string, type = "text/csv") =>
      call(importRoute, `/api/v1/studies/${s.id}/import`, bearer(lead.token, { method: "POST", body, headers: { "content-type": type } }), { id: s.id });
    const stored = async () => Object.fromEntries((await db.qaItem.findMany({ where: { studyId: s.id } })).map((q) => [q.externalId, q.preview]));
    return { s, lead, grader, post, stored };
  }

  it("stores the preview column, shows it (else the last paragraph) in the queue, and lets it change after grading", async () => {
    const { s, lead, grader, post, stored } = await study();
    const rows = [
      HEADER,
      `P1,Oncology,${cell(question("Can I take ibuprofen for the pain?"))},,${cell("  Ibuprofen  for pain ")},m1,1,An answer`,
      `P1,Oncology,${cell(question("Can I take ibuprofen for the pain?"))},,${cell("Ibuprofen for pain")},m2,1,Another answer`,
      `P2,Oncology,${cell(question("Should I **stop** capecitabine before my trip?"))},,,m1,1,An answer`,
      `P2,Oncology,${cell(question("Should I **stop** capecitabine before my trip?"))},,,m2,1,Another answer`,
    ];
    const r = await post(rows.join("\n"));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await stored()).toEqual({ P1: "Ibuprofen for pain", P2: null });

    const db = getDb();
    await db.study.update({ where: { id: s.id }, data: { status: "OPEN" } });
    await assignGraders(s.id, { seed: "preview" }, lead.id);
    const page = await listQueuePage(grader.id, s.id, { page: 1, pageSize: 25 });
    // Both questions open with the same context: the queue shows what tells them apart, never the shared first line.
    expect(page.rows.map((q) => q.question).sort()).toEqual(["Ibuprofen for pain", "Ibuprofen for pain", "Should I stop capecitabine before my trip?", "Should I stop capecitabine before my trip?"]);
    for (const q of page.rows) expect(q.question).not.toContain("Patient: 64 y");

    // A grade on P1: its question is fixed, but the queue's preview of it may still change (JSON rows too).
    const a = await db.assignment.findFirstOrThrow({ where: { graderId: grader.id, responseSet: { item: { externalId: "P1" } } } });
    expect((await put(grader.token, a.id, { scores: form({ score: [4, 4, 4, 4, 4] }), submit: false })).status).toBe(200);
    const json = await post(
      JSON.stringify([{ item_id: "P1", specialty: "Oncology", question: question("Can I take ibuprofen for the pain?"), reference_answer: "", preview: "NSAIDs on capecitabine" }]),
      "application/json",
    );
    expect(json.status, JSON.stringify(json.body)).toBe(200);
    expect(json.body).toMatchObject({ questions: { updated: 1, unchanged: 0 } });
    // A file without the column keeps the stored previews; a blank cell clears one.
    const without = await post(["item_id,specialty,question,reference_answer", `P1,Oncology,${cell(question("Can I take ibuprofen for the pain?"))},`].join("\n"));
    expect(without.status, JSON.stringify(without.body)).toBe(200);
    expect(await stored()).toEqual({ P1: "NSAIDs on capecitabine", P2: null });
    const cleared = await post(["item_id,specialty,question,reference_answer,preview", `P1,Oncology,${cell(question("Can I take ibuprofen for the pain?"))},,`].join("\n"));
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(await stored()).toEqual({ P1: null, P2: null });
    expect((await listQueuePage(grader.id, s.id, { page: 1, pageSize: 25 })).rows.find((q) => q.id === a.id)!.question).toBe("Can I take ibuprofen for the pain?");
  });

  it("refuses a preview too long or different on two rows of one question, naming the column, and writes nothing", async () => {
    const { post, stored } = await study();
    const r = await post(
      [
        HEADER,
        `P1,Oncology,${cell(question("Q1?"))},,${"x".repeat(501)},m1,1,An answer`,
        `P2,Oncology,${cell(question("Q2?"))},,One part,m1,1,An answer`,
        `P2,Oncology,${cell(question("Q2?"))},,Another part,m2,1,An answer`,
      ].join("\n"),
    );
    expect(r.status).toBe(422);
    const errors = (r.body as { details: { errors: { row: number; column: string; message: string }[] } }).details.errors;
    expect(errors.map((e) => [e.row, e.column])).toEqual([
      [1, "preview"],
      [3, "preview"],
    ]);
    expect(errors[0].message).toContain("preview is longer than 500 characters");
    expect(errors[1].message).toBe("item P2 has a different preview than in row 2");
    expect(await stored()).toEqual({});
  });
});
