import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { z } from "zod";
import { preferenceAxes } from "@/lib/rubrics/preference";
import { archiveRubrics } from "./archive-rubrics";
import { Batch, T } from "./archive-rows";
import { sqlIso } from "./sql";
import type { ArchiveComparison, ArchiveStudy } from "./contract";
import type { ExportSession } from "./session";

/**
 * A pairwise study in the study archive (lib/exports/archive.ts): the study's design fields in
 * `study`, and the `comparisons` section after the screen's, one element per comparison with its
 * graders' assignments (each with its preferences) and its escalation. Written for pairwise
 * studies only, so a scoring study's archive is what it was; an archive without them imports as
 * before. Automated judges' preferences are not carried: the archive has no judges (their scores
 * on scoring studies are not in it either).
 */

type Comparison = z.output<typeof ArchiveComparison>;
type Study = z.output<typeof ArchiveStudy>;

const C = (expr: string) => `${expr} COLLATE "C"`;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The study's design fields for the archive's `study`, or nothing for a scoring study. */
export function pairwiseStudyFields(study: Record<string, unknown>): Partial<Study> {
  if (study.design !== "PAIRWISE") return {};
  return { design: "PAIRWISE", pairDesign: (study.pairDesign as Record<string, unknown> | null) ?? null, pairSeed: (study.pairSeed as string | null) ?? null, tieDisagrees: Boolean(study.tieDisagrees) };
}

/** The `comparisons` section (with `section`, the export's cursor writer), grader ids mapped to document ids. */
export function comparisonSection(studyId: string, graderIds: string[], docIdOf: ReadonlyMap<string, string>) {
  const graderOrd = graderIds.map((_, i) => i);
  const sql = `
    SELECT qi."externalId" AS item, lm.name AS "leftModel", c."leftRepetition", rm.name AS "rightModel", c."rightRepetition", c.status::text AS status, c."createdAt", c."updatedAt",
           COALESCE((SELECT json_agg(json_build_object(
                       'id', ca.id, 'grader', ca."graderId", 'kind', ca.kind, 'position', ca.position, 'status', ca.status, 'timeSpentMs', ca."timeSpentMs",
                       'harmLeft', ca."harmLeft", 'harmLeftComment', ca."harmLeftComment", 'harmRight', ca."harmRight", 'harmRightComment', ca."harmRightComment",
                       'createdAt', ${sqlIso('ca."createdAt"')}, 'updatedAt', ${sqlIso('ca."updatedAt"')}, 'startedAt', ${sqlIso('ca."startedAt"')}, 'submittedAt', ${sqlIso('ca."submittedAt"')},
                       'preferences', COALESCE((SELECT json_agg(json_build_object('rubric', p.rubric, 'axis', p.axis, 'choice', p.choice, 'strength', p.strength, 'comment', p.comment,
                                                                 'createdAt', ${sqlIso('p."createdAt"')}, 'updatedAt', ${sqlIso('p."updatedAt"')})
                                                ORDER BY ${C("p.rubric")}, ${C("p.axis")})
                                                 FROM "Preference" p WHERE p."assignmentId" = ca.id), '[]'::json))
                       ORDER BY ca.kind, gm.ord)
                       FROM "ComparisonAssignment" ca JOIN unnest($2::uuid[], $3::int[]) AS gm(id, ord) ON gm.id = ca."graderId"
                      WHERE ca."comparisonId" = c.id), '[]'::json) AS assignments,
           (SELECT json_build_object('status', e.status, 'axes', e.axes, 'adjudicator', e."adjudicatorAssignmentId",
                                     'createdAt', ${sqlIso('e."createdAt"')}, 'updatedAt', ${sqlIso('e."updatedAt"')}, 'resolvedAt', ${sqlIso('e."resolvedAt"')})
              FROM "ComparisonEscalation" e WHERE e."comparisonId" = c.id) AS escalation
      FROM "Comparison" c JOIN "QaItem" qi ON qi.id = c."itemId"
      JOIN "ResponseSet" ls ON ls.id = c."leftSetId" JOIN "LlmModel" lm ON lm.id = ls."modelId"
      JOIN "ResponseSet" rs ON rs.id = c."rightSetId" JOIN "LlmModel" rm ON rm.id = rs."modelId"
     WHERE c."studyId" = $1::uuid
     ORDER BY ${C('qi."externalId"')}, ${C("lm.name")}, c."leftRepetition", ${C("rm.name")}, c."rightRepetition"`;
  type Assignment = { id: string; grader: string } & Record<string, unknown>;
  type Escalation = { axes: { rubric: string; axis: string; choices: Record<string, string> }[]; adjudicator: string | null } & Record<string, unknown>;
  const map = (r: Record<string, unknown>) => {
    const assignments = r.assignments as Assignment[];
    // The escalation names graders by assignment id in the database, by document id here.
    const graderOf = new Map(assignments.map((a) => [a.id, docIdOf.get(a.grader) ?? a.grader]));
    const e = r.escalation as Escalation | null;
    return {
      item: r.item,
      left: { model: r.leftModel, repetition: r.leftRepetition },
      right: { model: r.rightModel, repetition: r.rightRepetition },
      status: r.status,
      createdAt: iso(r.createdAt as Date),
      updatedAt: iso(r.updatedAt as Date),
      assignments: assignments.map(({ id: _id, grader, timeSpentMs, ...a }) => ({ grader: docIdOf.get(grader), ...a, timeSpentMs: Number(timeSpentMs) })),
      escalation: e
        ? {
            status: e.status,
            axes: (Array.isArray(e.axes) ? e.axes : []).map((x) => ({ ...x, choices: Object.fromEntries(Object.entries(x.choices ?? {}).map(([k, v]) => [graderOf.get(k) ?? k, v])) })),
            adjudicator: e.adjudicator ? (graderOf.get(e.adjudicator) ?? null) : null,
            createdAt: e.createdAt,
            updatedAt: e.updatedAt,
            resolvedAt: e.resolvedAt,
          }
        : null,
    };
  };
  return { sql, params: [studyId, graderIds, graderOrd], map };
}

/** Whether the study has comparisons to archive (a scoring study's archive has no such section). */
export async function hasComparisons(session: ExportSession, studyId: string): Promise<boolean> {
  const rows = await session.rawQuery<{ n: number }>(`SELECT count(*)::int AS n FROM "Comparison" WHERE "studyId" = $1::uuid`, [studyId]);
  return (rows[0]?.n ?? 0) > 0;
}

/** What checking a comparison needs of the archive read so far (lib/exports/archive-check.ts). */
export interface ComparisonContext {
  study: Study | null;
  add(path: string, message: string): void;
  /** The (item, model) set's index and its repetitions, or undefined after naming what is missing. */
  setOf(path: string, item: string, model: string): { index: number; repetitions: ReadonlySet<number> } | undefined;
  graderIndex: ReadonlyMap<string, number>;
  /** The (question, pair of models) of the comparisons so far: a design never sets the same pair side by side twice on one question. */
  pairs: Set<string>;
}

/**
 * Checks one comparison against what came before: its answers are answers of the study, its
 * graders are the document's (each once), its preferences are on the study's preference axes
 * (each once per grader), its escalation names its own graders. Returns the set and grader
 * indexes for the sink, or null (every problem added).
 */
export function checkComparison(context: ComparisonContext, at: string, c: Comparison): { left: number; right: number; graders: number[] } | null {
  let found = 0;
  const ctx = { ...context, add: (path: string, message: string) => (found++, context.add(path, message)), setOf: context.setOf };
  const study = ctx.study;
  if (study && study.design !== "PAIRWISE") ctx.add(at, "comparisons belong to a pairwise study: study.design is not PAIRWISE");
  const side = (which: "left" | "right") => {
    const ref = ctx.setOf(`${at}.${which}`, c.item, c[which].model);
    if (ref && !ref.repetitions.has(c[which].repetition)) ctx.add(`${at}.${which}.repetition`, `the set of item ${c.item} and model ${c[which].model} has no answer ${c[which].repetition}`);
    return ref?.index;
  };
  const left = side("left");
  const right = side("right");
  // Two models' answers, as the database keeps them (Comparison_two_sides_check): a model is never compared with itself.
  if (left !== undefined && left === right) {
    ctx.add(`${at}.right`, c.left.repetition === c.right.repetition ? "compares an answer with itself" : `compares model ${c.left.model} with itself: a comparison's two answers are two models'`);
  }
  const axes = study ? new Set(preferenceAxes(archiveRubrics(study.rubrics)).map((a) => `${a.rubric}.${a.axis.key}`)) : null;
  const graders: number[] = [];
  const seen = new Set<string>();
  c.assignments.forEach((a, j) => {
    const where = `${at}.assignments[${j}]`;
    const g = ctx.graderIndex.get(a.grader);
    if (g === undefined) ctx.add(`${where}.grader`, `no grader ${a.grader} in graders`);
    if (seen.has(a.grader)) ctx.add(`${where}.grader`, `grader ${a.grader} appears twice in this comparison`);
    seen.add(a.grader);
    graders.push(g ?? -1);
    const answered = new Set<string>();
    a.preferences.forEach((p, k) => {
      const key = `${p.rubric}.${p.axis}`;
      if (axes && !axes.has(key)) ctx.add(`${where}.preferences[${k}]`, `${key} is not a preference axis of the study's rubrics`);
      if (answered.has(key)) ctx.add(`${where}.preferences[${k}]`, `${key} appears twice`);
      answered.add(key);
      if (p.strength !== null && p.choice === "TIE") ctx.add(`${where}.preferences[${k}].strength`, "a tie has no strength");
    });
  });
  const e = c.escalation;
  if (e) {
    if (e.adjudicator !== null && !c.assignments.some((a) => a.grader === e.adjudicator && a.kind === "ADJUDICATOR")) {
      ctx.add(`${at}.escalation.adjudicator`, `${e.adjudicator} has no adjudicator assignment on this comparison`);
    }
    e.axes.forEach((x, k) => {
      if (axes && !axes.has(`${x.rubric}.${x.axis}`)) ctx.add(`${at}.escalation.axes[${k}]`, `${x.rubric}.${x.axis} is not a preference axis of the study's rubrics`);
      for (const g of Object.keys(x.choices)) if (!seen.has(g)) ctx.add(`${at}.escalation.axes[${k}].choices`, `${g} has no assignment on this comparison`);
    });
  }
  if (found > 0 || left === undefined || right === undefined) return null;
  const pair = JSON.stringify([c.item, ...[c.left.model, c.right.model].sort()]);
  if (ctx.pairs.has(pair)) {
    ctx.add(at, `question ${c.item} compares ${c.left.model} and ${c.right.model} twice: a design sets a pair of models side by side once per question`);
    return null;
  }
  ctx.pairs.add(pair);
  return { left, right, graders };
}

/** The import's rows of the comparisons, written after the sets and graders they name (lib/exports/archive-import.ts). */
export class ComparisonRows {
  comparisons = 0;
  preferences = 0;
  private pending = ComparisonRows.batches();

  private static batches() {
    return {
      comparisons: new Batch("Comparison", [["id", "uuid"], ["studyId", "uuid"], ["itemId", "uuid"], ["leftSetId", "uuid"], ["leftRepetition", "int4"], ["rightSetId", "uuid"], ["rightRepetition", "int4"], ["status", '"SetStatus"'], ["createdAt", T], ["updatedAt", T]]),
      assignments: new Batch("ComparisonAssignment", [
        ["id", "uuid"], ["comparisonId", "uuid"], ["studyId", "uuid"], ["graderId", "uuid"], ["kind", '"AssignmentKind"'], ["position", "int4"], ["status", '"AssignmentStatus"'], ["timeSpentMs", "int8"],
        ["harmLeft", "bool"], ["harmLeftComment", "text"], ["harmRight", "bool"], ["harmRightComment", "text"], ["createdAt", T], ["updatedAt", T], ["startedAt", T], ["submittedAt", T],
      ]),
      preferences: new Batch("Preference", [["id", "uuid"], ["assignmentId", "uuid"], ["rubric", "text"], ["axis", "text"], ["choice", '"PreferenceChoice"'], ["strength", '"PreferenceStrength"'], ["comment", "text"], ["createdAt", T], ["updatedAt", T]]),
      escalations: new Batch("ComparisonEscalation", [["id", "uuid"], ["comparisonId", "uuid"], ["status", '"EscalationStatus"'], ["axes", "jsonb"], ["adjudicatorAssignmentId", "uuid"], ["createdAt", T], ["updatedAt", T], ["resolvedAt", T]]),
    };
  }

  /** Queues one checked comparison; returns the rows it adds. Ids are new; graders are the import's accounts (`userIds`, by document index). */
  push(studyId: string, itemId: string, leftSetId: string, rightSetId: string, userIds: readonly string[], graders: readonly number[], c: Comparison): number {
    const id = randomUUID();
    const p = this.pending;
    p.comparisons.push(id, studyId, itemId, leftSetId, c.left.repetition, rightSetId, c.right.repetition, c.status, c.createdAt, c.updatedAt);
    const assignmentOf = new Map<string, string>();
    let rows = 1;
    c.assignments.forEach((a, j) => {
      const aid = randomUUID();
      assignmentOf.set(a.grader, aid);
      p.assignments.push(aid, id, studyId, userIds[graders[j]], a.kind, a.position, a.status, a.timeSpentMs, a.harmLeft, a.harmLeftComment, a.harmRight, a.harmRightComment, a.createdAt, a.updatedAt, a.startedAt, a.submittedAt);
      for (const x of a.preferences) p.preferences.push(randomUUID(), aid, x.rubric, x.axis, x.choice, x.strength, x.comment, x.createdAt, x.updatedAt);
      rows += 1 + a.preferences.length;
      this.preferences += a.preferences.length;
    });
    const e = c.escalation;
    if (e) {
      // Graders named by their document id in the archive, by their new assignment here, as the app keeps them.
      const axes = e.axes.map((x) => ({ ...x, choices: Object.fromEntries(Object.entries(x.choices).map(([g, v]) => [assignmentOf.get(g)!, v])) }));
      p.escalations.push(randomUUID(), id, e.status, JSON.stringify(axes), e.adjudicator ? assignmentOf.get(e.adjudicator)! : null, e.createdAt, e.updatedAt, e.resolvedAt);
      rows += 1;
    }
    this.comparisons++;
    return rows;
  }

  /** Writes what is queued, in the order of the foreign keys. */
  async write(client: pg.ClientBase): Promise<void> {
    const p = this.pending;
    for (const b of [p.comparisons, p.assignments, p.preferences, p.escalations]) await b.write(client);
  }

  drop(): void {
    this.pending = ComparisonRows.batches();
  }
}

/** The pairwise study fields the import writes on the new study (a scoring study's keep their defaults). */
export async function writeStudyDesign(client: pg.ClientBase, studyId: string, s: Study): Promise<void> {
  if (s.design !== "PAIRWISE") return;
  await client.query(`UPDATE "Study" SET design = 'PAIRWISE', "pairDesign" = $2::jsonb, "pairSeed" = $3, "tieDisagrees" = $4 WHERE id = $1`, [
    studyId,
    s.pairDesign === null ? null : JSON.stringify(s.pairDesign),
    s.pairSeed,
    s.tieDisagrees,
  ]);
}
