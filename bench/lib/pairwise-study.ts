/**
 * The pairwise counterpart of ./harness.ts's generateStudy: an open pairwise study on the
 * preference template (three axes) with `graders` graders (signed in, as there), each holding
 * about `perGrader` comparisons, planned and dealt by the app's own services (all pairs of three
 * models per question, two graders per comparison), and the form a grader submits.
 */
import { randomBytes } from "node:crypto";
import { hashPassword } from "@/lib/auth/password";
import { disconnectDb, getDb } from "@/lib/db/client";
import { dealComparisons } from "@/lib/pairwise/assign-service";
import { planStudyComparisons } from "@/lib/pairwise/plan-service";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { addGraders, type BenchGrader } from "./harness";
import { AUTH_SECRET } from "./server";

const RUBRICS = templateRubrics(["clever_preference"], 1);
const MODELS = ["Model A", "Model B", "Model C"];
const PER_COMPARISON = 2;

export async function generatePairwiseStudy(dbUrl: string, opts: { graders: number; perGrader: number }): Promise<{ studyId: string; graders: BenchGrader[] }> {
  process.env.DATABASE_URL = dbUrl;
  process.env.AUTH_SECRET = AUTH_SECRET;
  const db = getDb();
  const passwordHash = await hashPassword("bench-password-1");
  const lead = await db.user.create({ data: { email: `lead-${randomBytes(3).toString("hex")}@bench.org`, name: "Bench Lead", role: "LEAD", passwordHash } });
  const specialty = await db.specialty.upsert({ where: { name: "Bench" }, create: { name: "Bench" }, update: {} });
  const study = await db.study.create({
    data: {
      name: "Bench pairwise study",
      slug: `bench-pw-${randomBytes(3).toString("hex")}`,
      design: "PAIRWISE",
      rubrics: RUBRICS,
      repetitions: 1,
      gradersPerSet: PER_COMPARISON,
      thresholds: {},
      status: "OPEN",
      createdById: lead.id,
      members: { create: { userId: lead.id, role: "LEAD" } },
    },
  });
  const models = await Promise.all(MODELS.map((name) => db.llmModel.create({ data: { studyId: study.id, name } })));
  // All pairs of three models: three comparisons per question, each to PER_COMPARISON graders.
  const items = Math.ceil((opts.graders * opts.perGrader) / PER_COMPARISON / 3);
  const answer = "A plausible clinical answer with **markdown**, a list:\n\n- first point\n- second point\n\n".repeat(4);
  for (let i = 0; i < items; i += 500) {
    await db.qaItem.createMany({ data: Array.from({ length: Math.min(500, items - i) }, (_, j) => ({ studyId: study.id, externalId: `P${i + j + 1}`, question: `Bench question ${i + j + 1}?`, specialtyId: specialty.id })) });
  }
  const itemRows = await db.qaItem.findMany({ where: { studyId: study.id }, select: { id: true } });
  await db.responseSet.createMany({ data: itemRows.flatMap((it) => models.map((m) => ({ studyId: study.id, itemId: it.id, modelId: m.id }))) });
  const setIds = await db.responseSet.findMany({ where: { studyId: study.id }, select: { id: true } });
  for (let i = 0; i < setIds.length; i += 1000) {
    await db.response.createMany({ data: setIds.slice(i, i + 1000).map((s) => ({ responseSetId: s.id, repetition: 1, text: answer })) });
  }
  const graders = await addGraders(study.id, opts.graders, passwordHash);
  await planStudyComparisons(study.id, { design: { kind: "all_pairs" }, seed: "bench" }, lead.id);
  await dealComparisons(study.id, { seed: "bench", matchSpecialty: false }, lead.id);
  for (const g of graders) {
    g.assignmentIds = (await db.comparisonAssignment.findMany({ where: { graderId: g.id }, orderBy: { position: "asc" }, select: { id: true } })).map((a) => a.id);
  }
  await db.$executeRawUnsafe("ANALYZE");
  await disconnectDb();
  return { studyId: study.id, graders };
}

/** A submitted comparison: answer A preferred on every axis. */
export function preferenceBody(): string {
  const preferences = RUBRICS.flatMap((r) => r.dimensions.filter((d) => d.scale.kind === "preference").map((d) => ({ rubric: r.key, axis: d.key, choice: "a" as const })));
  return JSON.stringify({ preferences, elapsedMs: 1000 });
}

/** Preference rows stored per submitted comparison (one per axis). */
export const PREFERENCES_PER_FORM = RUBRICS.flatMap((r) => r.dimensions.filter((d) => d.scale.kind === "preference")).length;
