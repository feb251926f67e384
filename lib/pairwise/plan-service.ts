import { randomBytes } from "node:crypto";
import { recordAudit } from "@/lib/audit/record";
import { getDb, type Db, type Tx } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/errors/api-error";
import { setExcludedByScreenSql } from "@/lib/screening/sql";
import { planComparisons, type DesignQuestion, type PairDesign } from "./design";
import type { PairDesignInput, PlanComparisonsBody } from "./contract-schemas";
import { studyRunLockSql } from "./lock";

export interface ComparisonPlanSummary {
  design: PairDesignInput | null;
  seed: string | null;
  comparisons: number;
  questions: number;
  byStatus: Record<"AWAITING_GRADES" | "AGREED" | "AWAITING_ADJUDICATION" | "ADJUDICATED", number>;
  pairs: { modelA: string; modelB: string; comparisons: number }[];
  models: { model: string; left: number; right: number }[];
}

/** A pairwise study the lead may plan or deal, or a 409 saying why not. */
export function requirePairwise(study: { design: string }): void {
  if (study.design !== "PAIRWISE") throw new ApiError(409, "this study is of the scoring design: it has no comparisons (create a study with design \"pairwise\")");
}

/**
 * Plans the study's comparisons from the design and a seed, replacing an earlier plan: which two
 * models' answers to each question are set side by side, which of their N answers, and which on
 * the left (lib/pairwise/design.ts). Only questions whose sets hold all N answers take part, and
 * not sets the safety screen keeps out. Refused once any comparison has been dealt to a grader:
 * replanning then would take work from under them. The design and seed are stored on the study
 * and audited, so the plan can be shown and replayed.
 */
export async function planStudyComparisons(studyId: string, body: PlanComparisonsBody, actorId: string, requestId?: string): Promise<ComparisonPlanSummary> {
  const db = getDb();
  const seed = body.seed ?? randomBytes(6).toString("hex");
  await db.$transaction(
    async (tx: Tx) => {
      await tx.$executeRaw(studyRunLockSql(studyId));
      await tx.$queryRaw`SELECT id FROM "Study" WHERE id = ${studyId}::uuid FOR UPDATE`;
      const study = await tx.study.findUniqueOrThrow({ where: { id: studyId } });
      requirePairwise(study);
      if (study.status === "CLOSED") throw new ApiError(409, "the study is closed: its comparisons can no longer change");
      const dealt = await tx.comparisonAssignment.count({ where: { studyId } });
      if (dealt > 0) throw new ApiError(409, "comparisons are already dealt to graders: the plan can no longer change");

      const rows = await tx.$queryRaw<{ itemId: string; setId: string; model: string; repetitions: number[] }[]>`
        SELECT rs."itemId", rs.id AS "setId", m.name AS model,
               array_agg(r.repetition ORDER BY r.repetition) AS repetitions
        FROM "ResponseSet" rs
        JOIN "LlmModel" m ON m.id = rs."modelId"
        JOIN "Response" r ON r."responseSetId" = rs.id AND r.repetition <= ${study.repetitions}
        WHERE rs."studyId" = ${studyId}::uuid
          AND NOT ${setExcludedByScreenSql(Prisma.sql`rs.id`, Prisma.sql`${studyId}::uuid`)}
        GROUP BY rs."itemId", rs.id, m.name
        HAVING count(*) = ${study.repetitions}
        ORDER BY rs."itemId", m.name`;
      const questions = new Map<string, DesignQuestion & { sets: Map<string, string> }>();
      for (const r of rows) {
        const q = questions.get(r.itemId) ?? { id: r.itemId, models: [], sets: new Map() };
        (q.models as { model: string; repetitions: number[] }[]).push({ model: r.model, repetitions: r.repetitions });
        q.sets.set(r.model, r.setId);
        questions.set(r.itemId, q);
      }
      const design = body.design as PairDesign;
      const planned = planComparisons([...questions.values()], design, seed);
      if ("problem" in planned) throw new ApiError(422, "invalid input", [{ path: planned.path, message: planned.problem }]);
      if (planned.comparisons.length === 0) {
        throw new ApiError(422, "invalid input", [{ path: "design", message: "no comparison to plan: import at least two models' complete answers to a question first" }]);
      }

      await tx.comparison.deleteMany({ where: { studyId } });
      await tx.comparison.createMany({
        data: planned.comparisons.map((c) => {
          const q = questions.get(c.questionId)!;
          return {
            studyId,
            itemId: c.questionId,
            leftSetId: q.sets.get(c.leftModel)!,
            leftRepetition: c.leftRepetition,
            rightSetId: q.sets.get(c.rightModel)!,
            rightRepetition: c.rightRepetition,
          };
        }),
      });
      await tx.study.update({ where: { id: studyId }, data: { pairDesign: body.design, pairSeed: seed } });
      await recordAudit(tx, {
        actorId,
        action: "comparisons.plan",
        entityType: "Study",
        entityId: studyId,
        studyId,
        before: study.pairDesign ? { design: study.pairDesign, seed: study.pairSeed } : undefined,
        after: { design: body.design, seed, comparisons: planned.comparisons.length },
        requestId,
      });
    },
    { timeout: 120_000, maxWait: 10_000 },
  );
  return comparisonPlanSummary(db, studyId);
}

/** The plan as the lead sees it (model names are the lead's to see). */
export async function comparisonPlanSummary(db: Db | Tx, studyId: string): Promise<ComparisonPlanSummary> {
  const study = await db.study.findUniqueOrThrow({ where: { id: studyId }, select: { design: true, pairDesign: true, pairSeed: true } });
  requirePairwise(study);
  const [statuses, pairs, sides, questions] = await Promise.all([
    db.comparison.groupBy({ by: ["status"], where: { studyId }, _count: { _all: true } }),
    db.$queryRaw<{ modelA: string; modelB: string; comparisons: number }[]>`
      SELECT least(ml.name, mr.name) AS "modelA", greatest(ml.name, mr.name) AS "modelB", count(*)::int AS comparisons
      FROM "Comparison" c
      JOIN "ResponseSet" l ON l.id = c."leftSetId" JOIN "LlmModel" ml ON ml.id = l."modelId"
      JOIN "ResponseSet" r ON r.id = c."rightSetId" JOIN "LlmModel" mr ON mr.id = r."modelId"
      WHERE c."studyId" = ${studyId}::uuid
      GROUP BY 1, 2 ORDER BY 1, 2`,
    db.$queryRaw<{ model: string; left: number; right: number }[]>`
      SELECT m.name AS model, count(*) FILTER (WHERE s.side = 'left')::int AS left, count(*) FILTER (WHERE s.side = 'right')::int AS right
      FROM (SELECT "leftSetId" AS set, 'left' AS side FROM "Comparison" WHERE "studyId" = ${studyId}::uuid
            UNION ALL SELECT "rightSetId", 'right' FROM "Comparison" WHERE "studyId" = ${studyId}::uuid) s
      JOIN "ResponseSet" rs ON rs.id = s.set JOIN "LlmModel" m ON m.id = rs."modelId"
      GROUP BY m.name ORDER BY m.name`,
    db.$queryRaw<{ n: number }[]>`SELECT count(DISTINCT "itemId")::int AS n FROM "Comparison" WHERE "studyId" = ${studyId}::uuid`,
  ]);
  const byStatus = { AWAITING_GRADES: 0, AGREED: 0, AWAITING_ADJUDICATION: 0, ADJUDICATED: 0 };
  for (const s of statuses) byStatus[s.status] = s._count._all;
  return {
    design: (study.pairDesign as PairDesignInput | null) ?? null,
    seed: study.pairSeed,
    comparisons: Object.values(byStatus).reduce((a, b) => a + b, 0),
    questions: questions[0]?.n ?? 0,
    byStatus,
    pairs,
    models: sides,
  };
}
