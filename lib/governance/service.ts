import { recordAudit } from "@/lib/audit/record";
import { getDb, getPool } from "@/lib/db/client";
import { isUuid } from "@/lib/db/uuid";
import { ApiError } from "@/lib/errors/api-error";
import type { TriageDecision } from "@/lib/generated/prisma/enums";
import { Prisma } from "@/lib/generated/prisma/client";
import { finalDimensionValue } from "@/lib/scoring/rubric-final";
import type { DimensionValue } from "@/lib/scoring/rubric-values";
import { graderRubricValues, type StoredCell } from "@/lib/scoring/study-values";
import type { RubricDocument } from "@/lib/rubrics/document";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { finalPerAnswer } from "@/lib/results/set-detail";
import { DEFAULT_TRIAGE_RULE, mutualRougeL, setStability, triageRuleProblems, type DriftSource, type TriageRule, type TriageVerdict } from "./triage";

/**
 * The governance queue (stage 4): every final set of a study with N >= 2,
 * triaged by the study's rule from its graders' final scores, with the
 * lead's decision where one was made. Unblinded: leads only.
 */

export interface TriageRow {
  setId: string;
  itemId: string;
  specialty: string;
  model: string;
  drift: number | null;
  verdict: TriageVerdict | null;
  /** The mean ROUGE-L F1 between the set's answers (./triage.ts mutualRougeL), beside the verdict. */
  mutualRougeL: number | null;
  /** What the drift was read from, the largest first (at most three). */
  sources: DriftSource[];
  decision: { decision: TriageDecision; note: string; decidedAt: string } | null;
}

export interface TriageCount {
  model: string;
  specialty: string;
  accept: number;
  review: number;
  reject: number;
  unread: number;
  accepted: number;
  rejected: number;
}

export interface TriageReport {
  repetitions: number;
  rule: TriageRule;
  /** True when the study states no rule of its own. */
  defaultRule: boolean;
  sets: TriageRow[];
  counts: TriageCount[];
}

export function storedTriageRule(json: unknown): TriageRule | null {
  const r = json as Partial<TriageRule> | null;
  return r && typeof r.acceptAtMost === "number" && typeof r.reviewAtMost === "number" ? { acceptAtMost: r.acceptAtMost, reviewAtMost: r.reviewAtMost } : null;
}

type CellRow = { set: string; asg: string; rubric: string; dimension: string; repetition: number; score: number | null; category: string | null; na: boolean; criterion: string };

/** Each final dimension value over the set's submitted graders (the rule of the set's final scores). */
function finalsOf(rubrics: readonly RubricDocument[], n: number, graders: StoredCell[][]): Record<string, Record<string, DimensionValue>> {
  const values = graders.map((cells) => graderRubricValues(rubrics, cells, n));
  return Object.fromEntries(
    rubrics.map((doc) => [
      doc.key,
      Object.fromEntries(
        doc.dimensions
          .filter((d) => d.scale.kind === "ordinal" || d.scale.kind === "nominal")
          .map((d) => [d.key, finalDimensionValue(d.scale.kind as "ordinal" | "nominal", values.map((v) => v[doc.key]?.[d.key]))]),
      ),
    ]),
  );
}

export async function triageReport(studyId: string): Promise<TriageReport> {
  const study = await getDb().study.findUniqueOrThrow({ where: { id: studyId }, select: { rubrics: true, repetitions: true, triageRule: true } });
  const rubrics = storedRubrics(study.rubrics);
  const own = storedTriageRule(study.triageRule);
  const rule = own ?? DEFAULT_TRIAGE_RULE;
  const report: TriageReport = { repetitions: study.repetitions, rule, defaultRule: own === null, sets: [], counts: [] };
  if (study.repetitions < 2) return report;
  const pool = getPool();
  const { rows: sets } = await pool.query<{ id: string; itemId: string; specialty: string; model: string; decision: TriageDecision | null; note: string | null; decidedAt: Date | null }>(
    `SELECT rs.id::text, i."externalId" AS "itemId", sp.name AS specialty, m.name AS model, d.decision::text AS decision, d.note, d."decidedAt"
       FROM "ResponseSet" rs JOIN "QaItem" i ON i.id = rs."itemId" JOIN "Specialty" sp ON sp.id = i."specialtyId" JOIN "LlmModel" m ON m.id = rs."modelId"
       LEFT JOIN "SetDecision" d ON d."responseSetId" = rs.id
      WHERE rs."studyId" = $1::uuid AND rs.status IN ('AGREED', 'ADJUDICATED') AND rs."finalJudgeId" IS NULL
      ORDER BY i."externalId", m.name`,
    [studyId],
  );
  const { rows: cells } = await pool.query<CellRow>(
    `SELECT a."responseSetId"::text AS set, a.id::text AS asg, g.rubric, g.dimension, g.repetition, g.score, g.category, g.na, g.criterion
       FROM "Assignment" a JOIN "Grade" g ON g."assignmentId" = a.id JOIN "ResponseSet" rs ON rs.id = a."responseSetId"
      WHERE rs."studyId" = $1::uuid AND rs.status IN ('AGREED', 'ADJUDICATED') AND rs."finalJudgeId" IS NULL AND a.status = 'SUBMITTED'`,
    [studyId],
  );
  type Cell = Required<StoredCell>;
  const { rows: answers } = await pool.query<{ set: string; text: string }>(
    `SELECT r."responseSetId"::text AS set, r.text FROM "Response" r JOIN "ResponseSet" rs ON rs.id = r."responseSetId"
      WHERE rs."studyId" = $1::uuid AND rs.status IN ('AGREED', 'ADJUDICATED') AND rs."finalJudgeId" IS NULL ORDER BY r.repetition`,
    [studyId],
  );
  const textsOf = new Map<string, string[]>();
  for (const a of answers) textsOf.set(a.set, [...(textsOf.get(a.set) ?? []), a.text]);
  const bySet = new Map<string, Map<string, Cell[]>>();
  for (const c of cells) {
    const graders = bySet.get(c.set) ?? new Map<string, Cell[]>();
    bySet.set(c.set, graders);
    const own = graders.get(c.asg) ?? ([] as Cell[]);
    graders.set(c.asg, own);
    own.push({ rubric: c.rubric, dimension: c.dimension, repetition: c.repetition, score: c.score, category: c.category, na: c.na, criterion: c.criterion });
  }
  const counts = new Map<string, TriageCount>();
  for (const s of sets) {
    const graders = [...(bySet.get(s.id)?.values() ?? [])];
    const stability = setStability(rubrics, finalPerAnswer(rubrics, study.repetitions, graders), finalsOf(rubrics, study.repetitions, graders), rule);
    report.sets.push({
      setId: s.id,
      itemId: s.itemId,
      specialty: s.specialty,
      model: s.model,
      drift: stability.drift,
      verdict: stability.verdict,
      mutualRougeL: mutualRougeL(textsOf.get(s.id) ?? []),
      sources: stability.sources.slice(0, 3),
      decision: s.decision ? { decision: s.decision, note: s.note ?? "", decidedAt: s.decidedAt!.toISOString() } : null,
    });
    const key = `${s.model}\u0000${s.specialty}`;
    const c = counts.get(key) ?? { model: s.model, specialty: s.specialty, accept: 0, review: 0, reject: 0, unread: 0, accepted: 0, rejected: 0 };
    counts.set(key, c);
    c[stability.verdict ?? "unread"]++;
    if (s.decision === "ACCEPTED") c.accepted++;
    if (s.decision === "REJECTED") c.rejected++;
  }
  report.counts = [...counts.values()].sort((a, b) => a.model.localeCompare(b.model) || a.specialty.localeCompare(b.specialty));
  return report;
}

/** The study's own rule (null: back to the defaults); audited. */
export async function setTriageRule(studyId: string, rule: TriageRule | null, actor: { id: string; requestId?: string | null }): Promise<TriageRule> {
  if (rule) {
    const problems = triageRuleProblems(rule);
    if (problems.length) throw new ApiError(422, `the triage rule is not right: ${problems.map((p) => p.message).join("; ")}`, { errors: problems });
  }
  return getDb().$transaction(async (tx) => {
    const before = await tx.study.findUniqueOrThrow({ where: { id: studyId }, select: { triageRule: true } });
    await tx.study.update({ where: { id: studyId }, data: { triageRule: rule ? { ...rule } : Prisma.DbNull } });
    await recordAudit(tx, { actorId: actor.id, action: "study.triage_rule", entityType: "Study", entityId: studyId, studyId, before: { rule: storedTriageRule(before.triageRule) }, after: { rule }, requestId: actor.requestId });
    return rule ?? DEFAULT_TRIAGE_RULE;
  });
}

/** The lead's decision on a final set, with the note that says why; a second decision replaces the first (both audited). */
export async function decideSet(
  studyId: string,
  setId: string,
  input: { decision: TriageDecision; note: string },
  actor: { id: string; requestId?: string | null },
): Promise<{ decision: TriageDecision; note: string; decidedAt: string }> {
  if (!isUuid(setId)) throw new ApiError(404, "set not found in this study");
  return getDb().$transaction(async (tx) => {
    // The set's row first: its status is read, and the decision written, under the lock.
    const [set] = await tx.$queryRaw<{ status: string }[]>`SELECT status::text AS status FROM "ResponseSet" WHERE id = ${setId}::uuid AND "studyId" = ${studyId}::uuid FOR UPDATE`;
    if (!set) throw new ApiError(404, "set not found in this study");
    if (set.status !== "AGREED" && set.status !== "ADJUDICATED") throw new ApiError(409, "the set is not final yet: a decision follows its final scores");
    const before = await tx.setDecision.findUnique({ where: { responseSetId: setId } });
    const saved = await tx.setDecision.upsert({
      where: { responseSetId: setId },
      create: { responseSetId: setId, decision: input.decision, note: input.note, decidedById: actor.id },
      update: { decision: input.decision, note: input.note, decidedById: actor.id, decidedAt: new Date() },
    });
    await recordAudit(tx, {
      actorId: actor.id,
      action: "set.triage_decision",
      entityType: "ResponseSet",
      entityId: setId,
      studyId,
      before: before ? { decision: before.decision, note: before.note } : null,
      after: { decision: saved.decision, note: saved.note },
      requestId: actor.requestId,
    });
    return { decision: saved.decision, note: saved.note, decidedAt: saved.decidedAt.toISOString() };
  });
}
