import type pg from "pg";
import type { Tx } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * How the archive import (archive-import.ts) writes on its own connection:
 * rows gathered per table and sent in one statement per batch.
 */

/**
 * Rows of one table gathered column by column and written with one
 * INSERT ... SELECT FROM unnest(<one array per column>): one statement and a
 * fixed number of parameters whatever the number of rows.
 */
export class Batch {
  private cols: unknown[][];
  constructor(
    private readonly table: string,
    private readonly columns: [name: string, type: string][],
  ) {
    this.cols = columns.map(() => []);
  }

  get length(): number {
    return this.cols[0].length;
  }

  push(...values: unknown[]): void {
    values.forEach((v, i) => this.cols[i].push(v));
  }

  /** The values gathered in one column, e.g. to fill it in just before writing. */
  column(name: string): unknown[] {
    return this.cols[this.columns.findIndex(([n]) => n === name)];
  }

  async write(client: pg.ClientBase): Promise<void> {
    if (!this.length) return;
    const names = this.columns.map(([n]) => `"${n}"`).join(", ");
    await this.writeWith(client, (arrays) => `INSERT INTO "${this.table}" (${names}) SELECT * FROM unnest(${arrays})`);
  }

  /** Sends the rows gathered with the statement `sql` makes of the unnest arguments, and starts over. */
  protected async writeWith(client: pg.ClientBase, sql: (arrays: string) => string): Promise<void> {
    const values = this.cols;
    this.cols = this.columns.map(() => []);
    const arrays = this.columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
    await client.query(sql(arrays), values);
  }
}

/**
 * Rows about an answer named by its set and repetition (the screen's hits and
 * verdicts): written with the answer's id looked up in the same statement, so
 * the import keeps no map of answer ids. The answers are written first.
 */
export class AnswerBatch extends Batch {
  constructor(
    private readonly target: string,
    private readonly targetColumns: [name: string, type: string][],
  ) {
    super(target, [["setId", "uuid"], ["repetition", "int4"], ...targetColumns]);
  }

  async write(client: pg.ClientBase): Promise<void> {
    if (!this.length) return;
    const names = this.targetColumns.map(([n]) => `"${n}"`).join(", ");
    const picked = this.targetColumns.map(([n]) => `t."${n}"`).join(", ");
    const cols = ["setId", "repetition", ...this.targetColumns.map(([n]) => n)].map((n) => `"${n}"`).join(", ");
    await this.writeWith(
      client,
      (arrays) => `INSERT INTO "${this.target}" (${names}, "responseId") SELECT ${picked}, r.id FROM unnest(${arrays}) AS t(${cols})
        JOIN "Response" r ON r."responseSetId" = t."setId" AND r.repetition = t.repetition`,
    );
  }
}

/**
 * Quality tasks (lib/quality-tasks): a re-grade's source assignment (the grader's PRIMARY one on
 * the set) is looked up in the same statement, so the import keeps no map of assignment ids, and
 * the answers' order goes as text (unnest flattens an array of arrays). Assignments are written first.
 */
export class QualityTaskBatch extends Batch {
  static readonly COLUMNS: [string, string][] = [
    ["id", "uuid"], ["studyId", "uuid"], ["graderId", "uuid"], ["responseSetId", "uuid"], ["purpose", '"QualityPurpose"'], ["round", "int4"], ["position", "int4"],
    ["status", '"AssignmentStatus"'], ["answerOrder", "text"], ["availableAt", "timestamptz"], ["timeSpentMs", "int8"], ["harmFlag", "bool"], ["harmComment", "text"],
    ["contradictionFlag", "bool"], ["contradictionNote", "text"], ["createdAt", "timestamptz"], ["updatedAt", "timestamptz"], ["startedAt", "timestamptz"], ["submittedAt", "timestamptz"],
  ];
  constructor() {
    super("QualityTask", QualityTaskBatch.COLUMNS);
  }

  async write(client: pg.ClientBase): Promise<void> {
    if (!this.length) return;
    const names = QualityTaskBatch.COLUMNS.map(([n]) => `"${n}"`).join(", ");
    const picked = QualityTaskBatch.COLUMNS.map(([n]) => (n === "answerOrder" ? `t."answerOrder"::int[]` : `t."${n}"`)).join(", ");
    await this.writeWith(
      client,
      (arrays) => `INSERT INTO "QualityTask" (${names}, "sourceAssignmentId")
        SELECT ${picked}, (SELECT a.id FROM "Assignment" a WHERE t.purpose = 'REGRADE' AND a."responseSetId" = t."responseSetId" AND a."graderId" = t."graderId" AND a.kind = 'PRIMARY')
        FROM unnest(${arrays}) AS t(${names})`,
    );
  }
}

export const T = "timestamptz";
export const batches = () => ({
  items: new Batch("QaItem", [["id", "uuid"], ["studyId", "uuid"], ["externalId", "text"], ["question", "text"], ["referenceAnswer", "text"], ["specialtyId", "uuid"], ["createdAt", T], ["updatedAt", T]]),
  sets: new Batch("ResponseSet", [["id", "uuid"], ["studyId", "uuid"], ["itemId", "uuid"], ["modelId", "uuid"], ["status", '"SetStatus"'], ["createdAt", T], ["updatedAt", T]]),
  answers: new Batch("Response", [["id", "uuid"], ["responseSetId", "uuid"], ["repetition", "int4"], ["text", "text"], ["createdAt", T], ["updatedAt", T]]),
  assignments: new Batch("Assignment", [
    ["id", "uuid"], ["responseSetId", "uuid"], ["studyId", "uuid"], ["graderId", "uuid"], ["kind", '"AssignmentKind"'], ["position", "int4"], ["status", '"AssignmentStatus"'],
    ["timeSpentMs", "int8"], ["harmFlag", "bool"], ["harmComment", "text"], ["contradictionFlag", "bool"], ["contradictionNote", "text"], ["createdAt", T], ["updatedAt", T], ["startedAt", T], ["submittedAt", T],
  ]),
  grades: new Batch("Grade", [["id", "uuid"], ["assignmentId", "uuid"], ["rubric", "text"], ["dimension", "text"], ["repetition", "int4"], ["criterion", "text"], ["score", "int4"], ["category", "text"], ["na", "bool"], ["comment", "text"], ["createdAt", T], ["updatedAt", T]]),
  decisions: new Batch("SetDecision", [["responseSetId", "uuid"], ["decision", '"TriageDecision"'], ["note", "text"], ["decidedById", "uuid"], ["decidedAt", T]]),
  screens: new Batch("ScreenRun", [
    ["id", "uuid"], ["studyId", "uuid"], ["rules", "jsonb"], ["action", '"ScreenAction"'], ["answers", "int4"], ["createdById", "uuid"], ["createdAt", T],
    ["status", '"ScreenRunStatus"'], ["judge", "jsonb"], ["finishedAt", T], ["error", "text"], ["withdrawn", "int4"], ["keptGraded", "int4"],
  ]),
  screenHits: new AnswerBatch("ScreenHit", [["runId", "uuid"], ["rule", "int4"], ["matches", "int4"], ["excerpt", "text"]]),
  screenVerdicts: new AnswerBatch("ScreenVerdict", [["runId", "uuid"], ["flagged", "bool"], ["reason", "text"], ["createdAt", T]]),
  qualitySets: new Batch("QualitySet", [
    ["id", "uuid"], ["studyId", "uuid"], ["responseSetId", "uuid"], ["purpose", '"QualityPurpose"'], ["expected", "jsonb"], ["tolerance", "int4"], ["rationale", "text"], ["createdById", "uuid"], ["createdAt", T], ["updatedAt", T],
  ]),
  qualityTasks: new QualityTaskBatch(),
  qualityGrades: new Batch("QualityGrade", [["id", "uuid"], ["taskId", "uuid"], ["rubric", "text"], ["dimension", "text"], ["repetition", "int4"], ["criterion", "text"], ["score", "int4"], ["category", "text"], ["na", "bool"], ["comment", "text"], ["createdAt", T], ["updatedAt", T]]),
  escalations: new Batch("Escalation", [["id", "uuid"], ["responseSetId", "uuid"], ["status", '"EscalationStatus"'], ["dimensions", "jsonb"], ["adjudicatorAssignmentId", "uuid"], ["createdAt", T], ["updatedAt", T], ["resolvedAt", T]]),
});

/**
 * The connection as the two methods of a Prisma transaction that
 * specialtyIdsFor uses, so that specialty names are created in this
 * transaction by the code every other creator of them runs.
 */
export function onConnection(client: pg.ClientBase): Tx {
  const adapter = {
    $queryRaw: (q: Prisma.Sql) => client.query(q.text, q.values as unknown[]).then((r) => r.rows),
    $executeRawUnsafe: (q: string) => client.query(q).then((r) => r.rowCount ?? 0),
  };
  return adapter as unknown as Tx;
}
