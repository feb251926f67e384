import type { Criterion } from "@/lib/rubrics/criteria";
import type { RubricDocument } from "@/lib/rubrics/document";
import { resolveRubrics } from "@/lib/rubrics/study-rubrics";
import { defaultThresholds } from "@/lib/studies/thresholds";
import { randomBytes } from "node:crypto";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { copyAccountSpecialties } from "@/lib/graders/specialties";
import { DEFAULT_THRESHOLDS } from "@/lib/rubrics/thresholds";
import { makeUser } from "./fixtures";

export const MODEL_NAMES = ["Zeta-Model-Alpha", "Omega-LLM-Beta", "Kappa-Chat-Gamma"];
export const MODEL_VERSIONS = ["zma-2031-01-17", "olb-v9.4.2", "kcg-rev-77"];

/**
 * An open study ready to grade, written through Prisma: items x models x N
 * answers, a lead, graders on the study (with specialties), nothing assigned.
 * Model names and versions are distinctive so that a blinding crawl can look
 * for them in every body a grader receives.
 */
export async function makeGradableStudy(opts: {
  /** Template keys (SCORE, SAFE_LLM, discern...) or rubric documents. */
  rubrics?: (string | RubricDocument)[];
  /** A question's own criteria (criteria dimensions), by item index. */
  criteria?: (i: number) => Criterion[];
  items?: number;
  models?: number;
  n?: number;
  k?: number;
  graders?: number;
  specialties?: string[];
  graderSpecialties?: (i: number) => string[];
  incompleteSets?: number;
} = {}) {
  const db = getDb();
  const rubrics = opts.rubrics ?? ["SCORE", "SAFE_LLM"];
  const resolved = resolveRubrics(rubrics, opts.n ?? 3);
  if (!resolved.ok) throw new Error(JSON.stringify(resolved.problems));
  const docs = resolved.rubrics;
  const n = opts.n ?? 3;
  const specialties = opts.specialties ?? ["Ophthalmology", "Medication", "Anesthesia"];
  const lead = await makeUser("LEAD", "lead");
  const graders = [];
  for (let i = 0; i < (opts.graders ?? 4); i++) graders.push(await makeUser("GRADER", `grader${i + 1}`));
  const specialtyRows = [];
  for (const name of specialties) specialtyRows.push(await db.specialty.upsert({ where: { name }, create: { name }, update: {} }));
  for (const [i, g] of graders.entries()) {
    const mine = opts.graderSpecialties ? opts.graderSpecialties(i) : specialties;
    for (const s of specialtyRows.filter((r) => mine.includes(r.name))) await db.userSpecialty.create({ data: { userId: g.id, specialtyId: s.id } });
  }
  const study = await db.study.create({
    data: {
      name: `Grading study ${randomBytes(2).toString("hex")}`,
      slug: `gs-${randomBytes(4).toString("hex")}`,
      rubrics: docs,
      repetitions: n,
      gradersPerSet: opts.k ?? 2,
      thresholds: rubrics.every((r) => r === "SCORE" || r === "SAFE_LLM") ? DEFAULT_THRESHOLDS : defaultThresholds(docs),
      status: "OPEN",
      createdById: lead.id,
      members: { create: [{ userId: lead.id, role: "LEAD" }, ...graders.map((g) => ({ userId: g.id, role: "GRADER" as const }))] },
    },
  });
  await copyAccountSpecialties(db, study.id, graders.map((g) => g.id));
  const models = [];
  for (let m = 0; m < (opts.models ?? 3); m++) {
    models.push(await db.llmModel.create({ data: { studyId: study.id, name: MODEL_NAMES[m], version: MODEL_VERSIONS[m], temperature: 0.7, topP: 0.95 } }));
  }
  const sets: { id: string; itemId: string; modelId: string; specialty: string }[] = [];
  let incomplete = opts.incompleteSets ?? 0;
  for (let i = 0; i < (opts.items ?? 6); i++) {
    const specialty = specialtyRows[i % specialtyRows.length];
    const item = await db.qaItem.create({
      data: {
        studyId: study.id,
        externalId: `Q${i + 1}`,
        question: `Clinical question ${i + 1}?`,
        referenceAnswer: `Reference ${i + 1}`,
        specialtyId: specialty.id,
        ...(opts.criteria ? { criteria: opts.criteria(i) } : {}),
      },
    });
    for (const model of models) {
      const set = await db.responseSet.create({ data: { studyId: study.id, itemId: item.id, modelId: model.id } });
      const reps = incomplete > 0 ? n - 1 : n;
      if (incomplete > 0) incomplete--;
      await db.response.createMany({
        data: Array.from({ length: reps }, (_, r) => ({ responseSetId: set.id, repetition: r + 1, text: `Answer ${r + 1} to question ${i + 1}, **markdown** <script>alert(1)</script>` })),
      });
      sets.push({ id: set.id, itemId: item.id, modelId: model.id, specialty: specialty.name });
    }
  }
  return { study, lead, graders, models, sets, n };
}

/**
 * Two open studies of one item each, both graded by the same two graders,
 * both assigned: the grader's queue spans studies. The first study's graders
 * are the ones on the second.
 */
export async function twoStudiesSharingGraders() {
  const db = getDb();
  const first = await makeGradableStudy({ items: 1, graders: 2 });
  await assignGraders(first.study.id, { seed: "first" }, first.lead.id);
  const second = await makeGradableStudy({ items: 1, graders: 0 });
  await db.studyMember.createMany({ data: first.graders.map((g) => ({ studyId: second.study.id, userId: g.id, role: "GRADER" as const })) });
  await assignGraders(second.study.id, { seed: "second" }, second.lead.id);
  return { first, second, graders: first.graders };
}

/** A complete form: S.C.O.R.E. with the given five values; SAFE-LLM with per-answer tuples [acc, comp, supp, flu]. */
export { form, GOOD_SAFE } from "../../fixtures/grade-form";
