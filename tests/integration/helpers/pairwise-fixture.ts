import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { copyAccountSpecialties } from "@/lib/graders/specialties";
import type { RubricDocument } from "@/lib/rubrics/document";
import { createStudy } from "@/lib/studies/service";
import { makeUser } from "./fixtures";
import { MODEL_NAMES, MODEL_VERSIONS } from "./study-fixture";

/**
 * An open pairwise study, created through the service (so its design and rubrics are checked as a
 * lead's would be): items x models x N answers, a lead, graders on the study, nothing planned.
 * Model names and versions are distinctive, for the blinding crawl.
 */
export async function makePairwiseStudy(opts: { rubrics?: (string | RubricDocument)[]; items?: number; models?: number; n?: number; k?: number; graders?: number; tieDisagrees?: boolean } = {}) {
  const db = getDb();
  const n = opts.n ?? 2;
  const lead = await makeUser("LEAD", "lead");
  const graders = [];
  for (let i = 0; i < (opts.graders ?? 4); i++) graders.push(await makeUser("GRADER", `grader${i + 1}`));
  const name = `Pairwise study ${MODEL_NAMES[0]} ${randomBytes(2).toString("hex")}`;
  const { id } = await createStudy(
    { id: lead.id },
    {
      name,
      graderTitle: "",
      description: "",
      design: "pairwise",
      rubrics: (opts.rubrics ?? ["clever_preference"]) as (string | Record<string, unknown>)[],
      repetitions: n,
      gradersPerSet: opts.k ?? 2,
      showReferenceAnswer: true,
      askContradictions: false,
      matchSpecialty: false,
      safeLlmScoring: "PER_ANSWER",
      tieDisagrees: opts.tieDisagrees ?? false,
    },
  );
  await db.study.update({ where: { id }, data: { status: "OPEN" } });
  await db.studyMember.createMany({ data: graders.map((g) => ({ studyId: id, userId: g.id, role: "GRADER" as const })) });
  await copyAccountSpecialties(db, id, graders.map((g) => g.id));
  const specialty = await db.specialty.upsert({ where: { name: "Medication" }, create: { name: "Medication" }, update: {} });
  const models: { id: string; name: string }[] = [];
  for (let m = 0; m < (opts.models ?? 3); m++) {
    models.push(await db.llmModel.create({ data: { studyId: id, name: MODEL_NAMES[m], version: MODEL_VERSIONS[m] } }));
  }
  const items: { id: string; externalId: string }[] = [];
  for (let i = 0; i < (opts.items ?? 4); i++) {
    const item = await db.qaItem.create({ data: { studyId: id, externalId: `Q${i + 1}`, question: `Clinical question ${i + 1}?`, referenceAnswer: `Reference ${i + 1}`, specialtyId: specialty.id } });
    items.push(item);
    for (const model of models) {
      const set = await db.responseSet.create({ data: { studyId: id, itemId: item.id, modelId: model.id } });
      await db.response.createMany({
        data: Array.from({ length: n }, (_, r) => ({ responseSetId: set.id, repetition: r + 1, text: `Answer ${r + 1} by writer ${models.indexOf(model) + 1} to question ${i + 1}` })),
      });
    }
  }
  const study = await db.study.findUniqueOrThrow({ where: { id } });
  return { study, name, lead, graders, models, items, n };
}

/**
 * For the route suites: a planned pairwise study that this lead leads and this grader grades, with
 * one comparison dealt to the grader alone (another grader gets 404 on it).
 */
export async function pairwiseRouteFixture(leadId: string, graderId: string, opts: { deal?: boolean } = {}) {
  const db = getDb();
  const p = await makePairwiseStudy({ rubrics: ["overall_preference"], items: 2, models: 2, n: 1, graders: 0 });
  await db.studyMember.createMany({ data: [{ studyId: p.study.id, userId: leadId, role: "LEAD" }, { studyId: p.study.id, userId: graderId, role: "GRADER" }] });
  const { planStudyComparisons } = await import("@/lib/pairwise/plan-service");
  await planStudyComparisons(p.study.id, { design: { kind: "all_pairs" }, seed: "routes" }, p.lead.id);
  if (opts.deal === false) return { studyId: p.study.id, assignmentId: "", escalationId: "" };
  const [comparison, other] = await db.comparison.findMany({ where: { studyId: p.study.id }, orderBy: { id: "asc" } });
  const assignment = await db.comparisonAssignment.create({ data: { comparisonId: comparison.id, studyId: p.study.id, graderId, kind: "PRIMARY", position: 0 } });
  // The other comparison waits for an adjudicator the lead may assign (the grader is not on it).
  const escalation = await db.comparisonEscalation.create({ data: { comparisonId: other.id, status: "NEEDS_GRADER", axes: [] } });
  return { studyId: p.study.id, assignmentId: assignment.id, escalationId: escalation.id };
}
