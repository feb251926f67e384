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
import type { TriageCount, TriageReport, TriageRow, TriageRule, TriageRuleInput } from "./contract";
import { DEFAULT_TRIAGE_RULE, mutualRougeL, setStability, triageRuleProblems } from "./triage";

export type { TriageCount, TriageReport, TriageRow };

/**
 * The governance queue (stage 4): every final set of a study with N >= 2,
 * triaged by the study's rule from its graders' final scores, with the
 * lead's decision where one was made. Unblinded: leads only.
 */

/** A rule as sent or stored, complete: flag counts left out (rules stored before there were any) take the defaults. */
export function completeTriageRule(r: TriageRuleInput): TriageRule {
  return {
    acceptAtMost: r.acceptAtMost,
    reviewAtMost: r.reviewAtMost,
    reviewAtFlags: r.reviewAtFlags === undefined ? DEFAULT_TRIAGE_RULE.reviewAtFlags : r.reviewAtFlags,
    rejectAtFlags: r.rejectAtFlags === undefined ? DEFAULT_TRIAGE_RULE.rejectAtFlags : r.rejectAtFlags,
  };
}

const flagCount = (v: unknown) => (v === null || typeof v === "number" ? v : undefined);

export function storedTriageRule(json: unknown): TriageRule | null {
  const r = json as Record<string, unknown> | null;
  if (!r || typeof r.acceptAtMost !== "number" || typeof r.reviewAtMost !== "number") return null;
  return completeTriageRule({ acceptAtMost: r.acceptAtMost, reviewAtMost: r.reviewAtMost, reviewAtFlags: flagCount(r.reviewAtFlags), rejectAtFlags: flagCount(r.rejectAtFlags) });
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
  const study = await getDb().study.findUniqueOrThrow({ where: { id: studyId }, select: { rubrics: true, repetitions: true, triageRule: true, askContradictions: true } });
  const rubrics = storedRubrics(study.rubrics);
  const own = storedTriageRule(study.triageRule);
  const rule = own ?? DEFAULT_TRIAGE_RULE;
  const report: TriageReport = { repetitions: study.repetitions, rule, defaultRule: own === null, askContradictions: study.askContradictions, sets: [], counts: [] };
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
  // Each submitted grader's contradiction flag: read here, for the lead, never on a grader's path.
  const { rows: flags } = await pool.query<{ set: string; graders: number; flagged: number; notes: string[] }>(
    `SELECT a."responseSetId"::text AS set, count(*)::int AS graders, (count(*) FILTER (WHERE a."contradictionFlag"))::int AS flagged,
            COALESCE(array_agg(a."contradictionNote" ORDER BY a."submittedAt", a.id) FILTER (WHERE a."contradictionFlag" AND a."contradictionNote" IS NOT NULL), '{}') AS notes
       FROM "Assignment" a JOIN "ResponseSet" rs ON rs.id = a."responseSetId"
      WHERE rs."studyId" = $1::uuid AND rs.status IN ('AGREED', 'ADJUDICATED') AND rs."finalJudgeId" IS NULL AND a.status = 'SUBMITTED'
      GROUP BY a."responseSetId"`,
    [studyId],
  );
  const flagsOf = new Map(flags.map((f) => [f.set, f]));
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
    const flagged = flagsOf.get(s.id);
    const stability = setStability(rubrics, finalPerAnswer(rubrics, study.repetitions, graders), finalsOf(rubrics, study.repetitions, graders), rule, flagged?.flagged ?? 0);
    report.sets.push({
      setId: s.id,
      itemId: s.itemId,
      specialty: s.specialty,
      model: s.model,
      drift: stability.drift,
      contradictions: stability.contradictions,
      graders: flagged?.graders ?? 0,
      contradictionNotes: flagged?.notes ?? [],
      verdict: stability.verdict,
      mutualRougeL: mutualRougeL(textsOf.get(s.id) ?? []),
      sources: stability.sources.slice(0, 3),
      decision: s.decision ? { decision: s.decision, note: s.note ?? "", decidedAt: s.decidedAt!.toISOString() } : null,
    });
    const key = `${s.model}\u0000${s.specialty}`;
    const c = counts.get(key) ?? { model: s.model, specialty: s.specialty, accept: 0, review: 0, reject: 0, unread: 0, contradicted: 0, accepted: 0, rejected: 0 };
    counts.set(key, c);
    c[stability.verdict ?? "unread"]++;
    if (stability.contradictions > 0) c.contradicted++;
    if (s.decision === "ACCEPTED") c.accepted++;
    if (s.decision === "REJECTED") c.rejected++;
  }
  report.counts = [...counts.values()].sort((a, b) => a.model.localeCompare(b.model) || a.specialty.localeCompare(b.specialty));
  return report;
}

/** The study's own rule (null: back to the defaults); audited. */
export async function setTriageRule(studyId: string, input: TriageRuleInput | null, actor: { id: string; requestId?: string | null }): Promise<TriageRule> {
  const rule = input ? completeTriageRule(input) : null;
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
