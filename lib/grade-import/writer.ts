import { randomUUID } from "node:crypto";
import type pg from "pg";
import { oneStatement, orderedIds, Pieces, WritePipeline, type StatementPart } from "@/lib/import/pipeline";
import { SPECIALTY_NAMES_LOCK } from "@/lib/specialties/lock";
import type { GradeRows, StagedGrade } from "./rows";

/**
 * Writes a grades file while it streams in, on the answer import's engine
 * (lib/import/pipeline): new items, models, raters, sets and assignments in
 * one multi-row INSERT per batch, then the grades of new assignments straight
 * into "Grade" with COPY, queued on the connection so PostgreSQL writes while
 * the next rows are parsed. Only grades that may meet grades stored before
 * (a rater already in the study grading a set already in the study) are
 * staged in a temporary table, to be compared and merged at the end.
 *
 * A key the file repeats (rater, item, model, dimension, repetition) is
 * found here, in memory: a compact table of the first row and value of each
 * key, indexed by assignment. The same value again is one grade; another
 * value is a problem naming both rows.
 */

/** The study as it was when the import took its lock. */
export interface Existing {
  items: Map<string, string>;
  models: Map<string, string>;
  raters: Map<string, string>;
  /** `${itemId}|${modelId}` -> response set id. */
  sets: Map<string, string>;
}

export async function loadExisting(client: pg.Client, studyId: string): Promise<Existing> {
  const map = async (sql: string) => new Map((await client.query<{ id: string; k: string }>(sql, [studyId])).rows.map((x) => [x.k, x.id]));
  return {
    items: await map(`SELECT id, "externalId" AS k FROM "QaItem" WHERE "studyId" = $1::uuid`),
    models: await map(`SELECT id, name AS k FROM "LlmModel" WHERE "studyId" = $1::uuid`),
    raters: await map(`SELECT id, name AS k FROM "User" WHERE "externalStudyId" = $1::uuid`),
    sets: await map(`SELECT id, "itemId"::text || '|' || "modelId"::text AS k FROM "ResponseSet" WHERE "studyId" = $1::uuid`),
  };
}

/**
 * Grades that may meet stored ones are staged with their assignment's index in
 * the file (gi_grade.asg); the file's assignments of a stored rater and set,
 * one row each, go to gi_asg, so the merge looks each pair up once, not once
 * per grade.
 */
export const STAGING_DDL = `CREATE TEMP TABLE gi_grade (
  sheet int NOT NULL, row int NOT NULL, item int NOT NULL, rater int NOT NULL, asg int NOT NULL,
  dim int NOT NULL, repetition int NOT NULL, score int, category text, na boolean NOT NULL, comment text
) ON COMMIT DROP;
CREATE TEMP TABLE gi_asg (asg int NOT NULL, set_id uuid NOT NULL, grader_id uuid NOT NULL) ON COMMIT DROP`;
const COPY_STAGED = `COPY gi_grade (sheet, row, item, rater, asg, dim, repetition, score, category, na, comment) FROM STDIN (FORMAT csv)`;
const COPY_STAGED_ASSIGNMENTS = `COPY gi_asg (asg, set_id, grader_id) FROM STDIN (FORMAT csv)`;
const COPY_GRADES = `COPY "Grade" (id, "assignmentId", rubric, dimension, repetition, criterion, score, category, na, comment, "updatedAt") FROM STDIN (FORMAT csv)`;

/** Pending work is sent once this many characters of COPY data have gathered. */
const FLUSH_CHARS = 1024 * 1024;

// Quoted, so commas, quotes and line breaks reach PostgreSQL unchanged; an empty unquoted field is NULL.
const q = (s: string) => `"${s.includes('"') ? s.replaceAll('"', '""') : s}"`;

/** A growable typed array. */
function grow<T extends Uint8Array | Int32Array | Uint16Array | Float64Array>(a: T, need: number, make: (n: number) => T): T {
  if (need <= a.length) return a;
  let n = a.length || 1024;
  while (n < need) n *= 2;
  const b = make(n);
  b.set(a);
  return b;
}

const NA_CODE = Number.POSITIVE_INFINITY;
const MODEL_BITS = 2 ** 20;
const RATER_BITS = 2 ** 21;

export class GradeWriter {
  private readonly pipe: WritePipeline;
  private readonly gradeId = orderedIds();
  private readonly setId = orderedIds();
  private readonly assignmentId = orderedIds();
  private gradeCount = 0;
  /** The id of the assignment the last grade went to: a file's grades of one assignment come together, so each is made once rather than per grade. */
  private lastAsg = -1;
  private lastAsgId = "";

  /** By the file's 1-based indexes; null: an item the study lacks and may not create. */
  private readonly itemIds: (string | null | undefined)[] = [];
  private readonly itemNew: boolean[] = [];
  private readonly modelIds: (string | undefined)[] = [];
  private readonly raterIds: (string | undefined)[] = [];
  private readonly raterNew: boolean[] = [];
  /** item x model -> set index; set index -> id and whether it is new. */
  private readonly setIndex = new Map<number, number>();
  private readonly setIds: string[] = [];
  private readonly setNew: boolean[] = [];
  /** set x rater -> assignment index (its id is `assignmentId(index)` when new). */
  private readonly assignmentIndex = new Map<number, number>();
  private staged = new Uint8Array(0);
  /** Per assignment x dimension x repetition: the first row (0: none yet), its sheet, its value. */
  private firstRow = new Int32Array(0);
  private firstSheet = new Uint16Array(0);
  private value = new Float64Array(0);
  /** Where each dimension's repetitions start among an assignment's slots: one slot for a dimension graded once, N for one graded per answer. */
  private readonly dimSlot: number[] = [];
  private readonly slots: number;
  private readonly categories = new Map<string, number>();
  private readonly dimPrefix: string[];

  private newItems: { id: string; ext: string }[] = [];
  private newModels: { id: string; name: string }[] = [];
  private newRaters: { id: string; name: string; isNew: boolean }[] = [];
  private newSets: { id: string; item: string; model: string }[] = [];
  private newAssignments: { id: string; set: string; grader: string }[] = [];
  private readonly direct = new Pieces();
  private readonly stagedRows = new Pieces();
  private readonly stagedAssignments = new Pieces();
  private specialtyId: string | null = null;
  readonly oldSets: string[] = [];

  readonly counts = { items: 0, models: 0, raters: 0, sets: 0, direct: 0, staged: 0, duplicates: 0 };

  constructor(
    private readonly client: pg.Client,
    private readonly studyId: string,
    private readonly rows: GradeRows,
    private readonly existing: Existing,
    /** The study has items and the mapping says not to create more: an unknown item is a problem. */
    private readonly itemsClosed: boolean,
    private readonly timestamp: string,
  ) {
    this.pipe = new WritePipeline(client, 2, Boolean(process.env.GRADE_IMPORT_TRACE));
    let slots = 0;
    for (const d of rows.dimensions) {
      this.dimSlot.push(slots);
      slots += d.dimension.scope === "each_answer" ? rows.repetitionCount : 1;
    }
    this.slots = slots;
    this.dimPrefix = rows.dimensions.map((d) => `${q(d.rubric)},${q(d.key)},`);
  }

  private get writing(): boolean {
    return this.rows.totalProblems === 0;
  }

  private item(g: StagedGrade): string | null {
    const known = this.itemIds[g.item];
    if (known !== undefined) return known;
    const ext = this.rows.items.values[g.item - 1];
    let id = this.existing.items.get(ext) ?? null;
    if (id) this.itemNew[g.item] = false;
    else if (this.itemsClosed) {
      this.rows.problem({ ...this.rows.items.firstSeen[g.item - 1], message: `the study has no item "${ext}" (the mapping says not to create items)` });
    } else {
      id = randomUUID();
      this.itemNew[g.item] = true;
      this.newItems.push({ id, ext });
      this.counts.items++;
    }
    this.itemIds[g.item] = id;
    return id;
  }

  private model(g: StagedGrade): string {
    let id = this.modelIds[g.model];
    if (id === undefined) {
      const name = this.rows.models.values[g.model - 1];
      id = this.existing.models.get(name);
      if (!id) {
        id = randomUUID();
        this.newModels.push({ id, name });
        this.counts.models++;
      }
      this.modelIds[g.model] = id;
    }
    return id;
  }

  private rater(g: StagedGrade): string {
    let id = this.raterIds[g.rater];
    if (id === undefined) {
      const name = this.rows.raters.values[g.rater - 1];
      id = this.existing.raters.get(name);
      this.raterNew[g.rater] = !id;
      if (!id) {
        id = randomUUID();
        this.counts.raters++;
      }
      // Every rater of the file is a member of the study (again, if someone removed it).
      this.newRaters.push({ id, name, isNew: this.raterNew[g.rater] });
      this.raterIds[g.rater] = id;
    }
    return id;
  }

  private code(g: StagedGrade): number {
    if (g.na) return NA_CODE;
    if (g.category === null) return g.score as number;
    let c = this.categories.get(g.category);
    if (c === undefined) this.categories.set(g.category, (c = -1e15 - this.categories.size));
    return c;
  }

  /** Takes one checked grade of the file. */
  take(g: StagedGrade): void {
    const itemId = this.item(g);
    if (itemId === null) return;
    if (g.model >= MODEL_BITS || g.rater >= RATER_BITS) {
      this.rows.problem({ sheet: this.rows.sheets[g.sheet - 1] ?? null, row: g.row, column: null, message: "the file has more models or raters than an import takes" });
      return;
    }
    const modelId = this.model(g);
    const graderId = this.rater(g);
    const setKey = g.item * MODEL_BITS + g.model;
    let set = this.setIndex.get(setKey);
    if (set === undefined) {
      set = this.setIds.length;
      this.setIndex.set(setKey, set);
      const old = this.itemNew[g.item] ? undefined : this.existing.sets.get(`${itemId}|${modelId}`);
      this.setIds.push(old ?? this.setId(set));
      this.setNew.push(!old);
      if (old) this.oldSets.push(old);
      else {
        this.newSets.push({ id: this.setIds[set], item: itemId, model: modelId });
        this.counts.sets++;
      }
    }
    const asgKey = set * RATER_BITS + g.rater;
    let asg = this.assignmentIndex.get(asgKey);
    if (asg === undefined) {
      asg = this.assignmentIndex.size;
      this.assignmentIndex.set(asgKey, asg);
      // Grades stored before can exist only on an assignment of a rater and a set both stored before.
      const staged = !this.setNew[set] && !this.raterNew[g.rater];
      this.staged = grow(this.staged, asg + 1, (n) => new Uint8Array(n));
      this.staged[asg] = staged ? 1 : 0;
      if (!staged) this.newAssignments.push({ id: this.assignmentId(asg), set: this.setIds[set], grader: graderId });
      else if (this.writing) this.stagedAssignments.add(`${asg},${this.setIds[set]},${graderId}\n`);
      const need = (asg + 1) * this.slots;
      this.firstRow = grow(this.firstRow, need, (n) => new Int32Array(n));
      this.firstSheet = grow(this.firstSheet, need, (n) => new Uint16Array(n));
      this.value = grow(this.value, need, (n) => new Float64Array(n));
    }
    const slot = asg * this.slots + this.dimSlot[g.dim - 1] + Math.max(0, g.repetition - 1);
    const code = this.code(g);
    if (this.firstRow[slot] !== 0) {
      if (this.value[slot] === code) this.counts.duplicates++;
      else this.repeated(g, slot);
      return;
    }
    this.firstRow[slot] = g.row;
    this.firstSheet[slot] = g.sheet;
    this.value[slot] = code;
    if (!this.writing) return;
    const value = `${g.score ?? ""},${g.category === null ? "" : q(g.category)},${g.na ? "t" : "f"},${g.comment === null ? "" : q(g.comment)}`;
    if (this.staged[asg]) {
      this.stagedRows.add(`${g.sheet},${g.row},${g.item},${g.rater},${asg},${g.dim},${g.repetition},${value}\n`);
      this.counts.staged++;
    } else {
      if (asg !== this.lastAsg) {
        this.lastAsg = asg;
        this.lastAsgId = this.assignmentId(asg);
      }
      this.direct.add(`${this.gradeId(this.gradeCount++)},${this.lastAsgId},${this.dimPrefix[g.dim - 1]}${g.repetition},"",${value},${this.timestamp}\n`);
      this.counts.direct++;
    }
  }

  private repeated(g: StagedGrade, slot: number): void {
    const sheetName = (i: number) => this.rows.sheets[i - 1] ?? null;
    const first = sheetName(this.firstSheet[slot]);
    const here = sheetName(g.sheet);
    this.rows.problem({
      sheet: first,
      row: this.firstRow[slot],
      column: null,
      message: `${this.rows.raters.values[g.rater - 1]} graded ${this.rows.dimensions[g.dim - 1].name} of item ${this.rows.items.values[g.item - 1]} twice with different values (also ${here ? `${here} ` : ""}row ${g.row})`,
    });
  }

  get shouldFlush(): boolean {
    return this.direct.size + this.stagedRows.size + this.stagedAssignments.size >= FLUSH_CHARS;
  }

  /** The study's "Unspecified" specialty for new items, under the lock every creator of specialty names takes. */
  private async specialty(): Promise<string> {
    if (this.specialtyId) return this.specialtyId;
    await this.pipe.drain();
    await this.client.query(SPECIALTY_NAMES_LOCK);
    const sp = await this.client.query<{ id: string }>(`SELECT id FROM "Specialty" WHERE lower(name) = 'unspecified' ORDER BY name LIMIT 1`);
    this.specialtyId = sp.rows[0]?.id ?? randomUUID();
    if (!sp.rows.length) await this.client.query(`INSERT INTO "Specialty" (id, name) VALUES ($1::uuid, 'Unspecified')`, [this.specialtyId]);
    return this.specialtyId;
  }

  /** Sends what has gathered; waits only when too much is already on its way. */
  async flush(): Promise<void> {
    const work: Promise<void>[] = [];
    if (this.writing) {
      const specialty = this.newItems.length ? await this.specialty() : null;
      // One statement (one round trip): each INSERT is a CTE of the next, and the foreign keys,
      // checked at the end of the statement, see the rows of the CTEs before them.
      const parts: StatementPart[] = [];
      const study = this.studyId;
      const ts = this.timestamp;
      if (this.newModels.length) {
        const m = this.newModels;
        parts.push({
          sql: (p) => `INSERT INTO "LlmModel" (id, "studyId", name) SELECT u.id, ${p(1)}::uuid, u.name FROM unnest(${p(2)}::uuid[], ${p(3)}::text[]) AS u(id, name)`,
          values: [study, m.map((x) => x.id), m.map((x) => x.name)],
        });
      }
      if (this.newItems.length) {
        const i = this.newItems;
        parts.push({
          sql: (p) => `INSERT INTO "QaItem" (id, "studyId", "externalId", question, "specialtyId", "updatedAt")
            SELECT u.id, ${p(1)}::uuid, u.ext, '', ${p(4)}::uuid, ${p(5)}::timestamptz FROM unnest(${p(2)}::uuid[], ${p(3)}::text[]) AS u(id, ext)`,
          values: [study, i.map((x) => x.id), i.map((x) => x.ext), specialty, ts],
        });
      }
      if (this.newRaters.length) {
        const r = this.newRaters.filter((x) => x.isNew);
        if (r.length) {
          parts.push({
            sql: (p) => `INSERT INTO "User" (id, email, name, "passwordHash", role, active, "externalStudyId", "updatedAt")
              SELECT u.id, 'ext-' || u.id::text || '@external.invalid', u.name, '', 'GRADER', false, ${p(1)}::uuid, ${p(4)}::timestamptz FROM unnest(${p(2)}::uuid[], ${p(3)}::text[]) AS u(id, name)`,
            values: [study, r.map((x) => x.id), r.map((x) => x.name), ts],
          });
        }
        const all = this.newRaters;
        parts.push({
          sql: (p) => `INSERT INTO "StudyMember" ("studyId", "userId", role) SELECT ${p(1)}::uuid, u, 'GRADER' FROM unnest(${p(2)}::uuid[]) AS u ON CONFLICT DO NOTHING`,
          values: [study, all.map((x) => x.id)],
        });
      }
      if (this.newSets.length) {
        const s = this.newSets;
        // A new set has no grader of the study at work on it: its imported grades are final at once.
        parts.push({
          sql: (p) => `INSERT INTO "ResponseSet" (id, "studyId", "itemId", "modelId", status, "updatedAt")
            SELECT u.id, ${p(1)}::uuid, u.item, u.model, 'AGREED', ${p(5)}::timestamptz FROM unnest(${p(2)}::uuid[], ${p(3)}::uuid[], ${p(4)}::uuid[]) AS u(id, item, model)`,
          values: [study, s.map((x) => x.id), s.map((x) => x.item), s.map((x) => x.model), ts],
        });
      }
      if (this.newAssignments.length) {
        const a = this.newAssignments;
        parts.push({
          sql: (p) => `INSERT INTO "Assignment" (id, "responseSetId", "studyId", "graderId", kind, position, status, "submittedAt", "updatedAt")
            SELECT u.id, u.set, ${p(1)}::uuid, u.grader, 'PRIMARY', 0, 'SUBMITTED', ${p(5)}::timestamptz, ${p(5)}::timestamptz
              FROM unnest(${p(2)}::uuid[], ${p(3)}::uuid[], ${p(4)}::uuid[]) AS u(id, set, grader)`,
          values: [study, a.map((x) => x.id), a.map((x) => x.set), a.map((x) => x.grader), ts],
        });
      }
      if (parts.length) {
        const { text, values } = oneStatement(parts);
        work.push(this.pipe.query(text, values));
      }
      if (this.direct.size) work.push(this.pipe.copy(COPY_GRADES, this.direct));
      if (this.stagedAssignments.size) work.push(this.pipe.copy(COPY_STAGED_ASSIGNMENTS, this.stagedAssignments));
      if (this.stagedRows.size) work.push(this.pipe.copy(COPY_STAGED, this.stagedRows));
    }
    // Once the file has a problem nothing more is written: the transaction will be rolled back.
    this.newItems = [];
    this.newModels = [];
    this.newRaters = [];
    this.newSets = [];
    this.newAssignments = [];
    this.direct.take();
    this.stagedRows.take();
    this.stagedAssignments.take();
    await this.pipe.bound(work[work.length - 1]);
  }

  /** Sends the rest and waits for all of it. */
  async finish(): Promise<void> {
    await this.flush();
    await this.pipe.drain();
  }

  /** What the statements sent while streaming took, by kind (with GRADE_IMPORT_TRACE). */
  get timings(): ReadonlyMap<string, { n: number; ms: number }> {
    return this.pipe.timings;
  }

  /** Waits until nothing sent is still running (before a rollback on the same connection). */
  settle(): Promise<void> {
    return this.pipe.settle();
  }
}
