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
    const values = this.cols;
    this.cols = this.columns.map(() => []);
    const names = this.columns.map(([n]) => `"${n}"`).join(", ");
    const arrays = this.columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
    await client.query(`INSERT INTO "${this.table}" (${names}) SELECT * FROM unnest(${arrays})`, values);
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
