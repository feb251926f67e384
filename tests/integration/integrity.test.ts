import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { DEFAULT_THRESHOLDS } from "@/lib/rubrics/thresholds";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

/** A minimal graded study written straight through Prisma. */
async function gradedFixture() {
  const db = getDb();
  const lead = await db.user.create({ data: { email: `lead-${Math.random()}@x.org`, name: "Lead", role: "LEAD", passwordHash: "x" } });
  const grader = await db.user.create({ data: { email: `g-${Math.random()}@x.org`, name: "G", role: "GRADER", passwordHash: "x" } });
  const specialty = await db.specialty.upsert({ where: { name: "Ophthalmology" }, create: { name: "Ophthalmology" }, update: {} });
  const study = await db.study.create({
    data: { name: "S", slug: `s-${Math.random()}`, rubrics: templateRubrics(["SCORE", "SAFE_LLM"]), thresholds: DEFAULT_THRESHOLDS, createdById: lead.id },
  });
  const item = await db.qaItem.create({ data: { studyId: study.id, externalId: "Q1", question: "Q?", specialtyId: specialty.id } });
  const model = await db.llmModel.create({ data: { studyId: study.id, name: "M" } });
  const set = await db.responseSet.create({ data: { studyId: study.id, itemId: item.id, modelId: model.id } });
  await db.response.create({ data: { responseSetId: set.id, repetition: 1, text: "A" } });
  const assignment = await db.assignment.create({ data: { responseSetId: set.id, studyId: study.id, graderId: grader.id, kind: "PRIMARY", position: 0 } });
  await db.grade.create({ data: { assignmentId: assignment.id, rubric: "SCORE", dimension: "safety", repetition: 1, score: 4 } });
  return { db, lead, grader, study, item, model, set, assignment };
}

describe("integrity enforced by PostgreSQL itself", () => {
  it("stores one grade per assignment, rubric, dimension and repetition", async () => {
    const { db, assignment } = await gradedFixture();
    await expect(
      db.grade.create({ data: { assignmentId: assignment.id, rubric: "SCORE", dimension: "safety", repetition: 1, score: 5 } }),
    ).rejects.toThrow(/Unique constraint/);
  });

  it("stores one assignment per grader and response set", async () => {
    const { db, set, grader } = await gradedFixture();
    await expect(db.assignment.create({ data: { responseSetId: set.id, studyId: set.studyId, graderId: grader.id, kind: "ADJUDICATOR", position: 1 } })).rejects.toThrow(
      /Unique constraint/,
    );
  });

  // Ranges and dimension names belong to each study's rubric documents: the grading transaction checks
  // them (tests/integration/custom-rubrics.test.ts). PostgreSQL keeps the shape of a grade.
  it.each([
    ["a score and a nominal value at once", { score: 3, category: "none" }],
    ["a score and N/A at once", { score: 3, na: true }],
    ["no value and no comment", { score: null }],
    ["a negative repetition", { score: 3, repetition: -1 }],
  ] as const)("refuses a grade with %s", async (_what, data) => {
    const { db, assignment } = await gradedFixture();
    await expect(db.grade.create({ data: { assignmentId: assignment.id, rubric: "SCORE", dimension: "objectivity", repetition: 1, ...data } })).rejects.toThrow(/check constraint/i);
  });

  it("keeps a draft's comment typed before its score, with no value", async () => {
    const { db, assignment } = await gradedFixture();
    await db.grade.create({ data: { assignmentId: assignment.id, rubric: "SCORE", dimension: "objectivity", repetition: 1, score: null, comment: "jargon" } });
    expect(await db.grade.count({ where: { assignmentId: assignment.id } })).toBe(2);
  });

  it("keeps an assignment's study equal to its set's study", async () => {
    const { db, lead, grader, set, assignment } = await gradedFixture();
    const other = await db.study.create({ data: { name: "Other", slug: `o-${Math.random()}`, rubrics: templateRubrics(["SCORE"]), thresholds: DEFAULT_THRESHOLDS, createdById: lead.id } });
    await expect(db.assignment.create({ data: { responseSetId: set.id, studyId: other.id, graderId: lead.id, kind: "PRIMARY", position: 0 } })).rejects.toThrow(/Foreign key constraint/);
    await expect(db.assignment.update({ where: { id: assignment.id }, data: { studyId: other.id } })).rejects.toThrow(/Foreign key constraint/);
    expect((await db.assignment.findUniqueOrThrow({ where: { id: assignment.id } })).graderId).toBe(grader.id);
  });

  it("accepts every in-range score of both rubrics", async () => {
    const { db, assignment } = await gradedFixture();
    await db.grade.createMany({
      data: [
        { assignmentId: assignment.id, rubric: "SCORE", dimension: "reproducibility", repetition: 0, score: 5 },
        { assignmentId: assignment.id, rubric: "SAFE_LLM", dimension: "accuracy", repetition: 1, score: 2 },
        { assignmentId: assignment.id, rubric: "SAFE_LLM", dimension: "comprehensiveness", repetition: 1, score: 0 },
        { assignmentId: assignment.id, rubric: "SAFE_LLM", dimension: "supplementation", repetition: 1, score: 1 },
        { assignmentId: assignment.id, rubric: "SAFE_LLM", dimension: "fluency", repetition: 1, score: 1 },
        { assignmentId: assignment.id, rubric: "SAFE_LLM", dimension: "consistency", repetition: 0, score: 0 },
      ],
    });
    expect(await db.grade.count({ where: { assignmentId: assignment.id } })).toBe(7);
  });

  it("refuses to delete graded data (foreign keys restrict)", async () => {
    const { db, assignment, set, item, grader } = await gradedFixture();
    await expect(db.assignment.delete({ where: { id: assignment.id } })).rejects.toThrow();
    await expect(db.responseSet.delete({ where: { id: set.id } })).rejects.toThrow();
    await expect(db.qaItem.delete({ where: { id: item.id } })).rejects.toThrow();
    await expect(db.user.delete({ where: { id: grader.id } })).rejects.toThrow();
    expect(await db.grade.count({ where: { assignmentId: assignment.id } })).toBe(1);
  });

  it("refuses a harm flag without a comment", async () => {
    const { db, assignment } = await gradedFixture();
    await expect(db.assignment.update({ where: { id: assignment.id }, data: { harmFlag: true, harmComment: "  " } })).rejects.toThrow(/check constraint/i);
  });

  it("keeps the audit log append-only, whatever the client", async () => {
    const db = getDb();
    const e = await db.auditEvent.create({ data: { action: "test.event", entityType: "Test" } });
    await expect(db.auditEvent.update({ where: { id: e.id }, data: { action: "forged" } })).rejects.toThrow(/append-only/);
    await expect(db.auditEvent.delete({ where: { id: e.id } })).rejects.toThrow(/append-only/);
    await expect(db.$executeRawUnsafe(`TRUNCATE "AuditEvent"`)).rejects.toThrow(/append-only/);
    expect((await db.auditEvent.findUnique({ where: { id: e.id } }))?.action).toBe("test.event");
  });
});
