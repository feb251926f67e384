import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { auditInsertSql } from "@/lib/audit/record";
import { pgQuery, refreshReferenceMetrics } from "@/lib/reference-metrics/refresh";
import { databaseUrl } from "@/lib/db/url";
import type { Role } from "@/lib/generated/prisma/enums";
import { chunksOf, coalesce, decodeUtf8, formatBytes, limitBytes } from "@/lib/import/source";
import { ApiError } from "@/lib/errors/api-error";
import { pickUniqueSlug, randomSlugSuffix } from "@/lib/studies/slug";
import { specialtyIdsFor, specialtyKey } from "@/lib/specialties/names";
import { ArchiveChecker, MAX_PROBLEMS, type ArchiveHead, type ArchiveSink } from "./archive-check";
import { ComparisonRows } from "./archive-comparisons";
import { archiveBindings, writeArchivedStudy } from "./archive-import-study";
import { archiveEvents } from "./archive-read";
import { Batch, batches, onConnection, T } from "./archive-rows";
import type { ArchiveAssignment, StudyArchive } from "./contract";

/**
 * POST /api/v1/study-archives: a `study` document (lib/exports/archive.ts)
 * becomes a new study owned by the caller, with new ids, in ONE transaction.
 * The document streams in: each element is checked (archive-check.ts) and
 * written in batches as it arrives; any problem stops the writing, the rest
 * is still checked so that every problem is listed, and the transaction is
 * rolled back: nothing of a refused document is ever visible. It runs on a
 * connection of its own with plain pg, as the CSV import does: rows go in by
 * INSERT ... SELECT FROM unnest(arrays), and Prisma's raw queries would keep
 * every batch's parameters in its query plan cache.
 *
 * Graders are never bound to existing accounts by what the document says:
 * anyone who can export can edit an email. Each grader becomes a new,
 * deactivated, pseudonymous grader account with no password, so the grades
 * are kept for analysis but belong to nobody real. Only an admin may bind a
 * grader to an existing grader account, by naming it in the request (`map`);
 * the audit event lists every binding.
 *
 * Timestamps of everything below the study are kept (so a re-export matches);
 * the study itself is created now. The audit section, if any, is not
 * replayed: the new study's trail starts with one "study.import_archive" event.
 */

/** Largest document accepted: ARCHIVE_MAX_BYTES, default 256 MB. */
export function maxArchiveBytes(): number {
  const configured = Number(process.env.ARCHIVE_MAX_BYTES);
  return Number.isFinite(configured) && configured > 0 ? Math.floor(configured) : 256 * 1024 * 1024;
}

const archiveTooLarge = (max: number) => new ApiError(413, `the archive is larger than the limit of ${formatBytes(max)} (ARCHIVE_MAX_BYTES)`);

/** Rows gathered before they are sent, and characters of text. */
const CHUNK = 5000;
const FLUSH_CHARS = 4 * 1024 * 1024;
/** Not an Argon2 hash, so no password can ever match it (verifyPassword treats a malformed hash as a mismatch). */
const NO_PASSWORD = "!archived-account-without-password";

/** A time of the document as PostgreSQL takes it (milliseconds, as the columns keep). */
const d = (s: string) => new Date(s).toISOString();
const dn = (s: string | null) => (s === null ? null : d(s));

export interface ArchiveImportOptions {
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null;
  contentLength?: number | null;
  maxBytes?: number;
  actor: { id: string; role: Role; requestId?: string | null };
  /** Admins only: the document's grader `grader` is the existing account `account` (an email or a user id). */
  map?: { grader: string; account: string }[];
}

export interface ImportedArchive {
  id: string;
  slug: string;
  pseudonymous: number;
  mapped: number;
}

export async function importArchive(o: ArchiveImportOptions): Promise<ImportedArchive> {
  if (o.map?.length && o.actor.role !== "ADMIN") throw new ApiError(403, "only an admin can bind an archive's graders to existing accounts (map)");
  if (!o.body) throw new ApiError(400, "the request has no body: send the study archive (JSON)");
  const maxBytes = o.maxBytes ?? maxArchiveBytes();
  if (o.contentLength && o.contentLength > maxBytes) throw archiveTooLarge(maxBytes);
  const body = o.body;
  const client = new pg.Client({ connectionString: databaseUrl(), application_name: "clingrade-archive-import" });
  // A connection killed from outside (database restart) must not crash the process.
  client.on("error", () => undefined);
  await client.connect();
  let open = false;
  try {
    await client.query("BEGIN");
    open = true;
    // A stalled upload must not hold its locks (the specialty names') for ever.
    await client.query("SET LOCAL idle_in_transaction_session_timeout = '10min'");
    const writer = new ArchiveWriter(client, o);
    const checker = new ArchiveChecker(writer);
    writer.checker = checker;
    const text = decodeUtf8(coalesce(limitBytes(chunksOf(body), maxBytes, o.contentLength, archiveTooLarge)));
    for await (const events of archiveEvents(text)) {
      for (const e of events) if (checker.accept(e)) await writer.open();
      await writer.flush(false);
    }
    if (checker.finish()) await writer.open();
    if (checker.failed) {
      const n = checker.total;
      throw new ApiError(422, `${n.toLocaleString("en")} problem${n === 1 ? "" : "s"} in the document; nothing was imported`, {
        problems: checker.problems,
        total: n,
        ...(n > MAX_PROBLEMS ? { note: `the first ${MAX_PROBLEMS} are listed` } : {}),
      });
    }
    await writer.flush(true);
    const imported = await writer.finish();
    // Metrics are derived from the answers and references, so they are computed, not carried.
    await refreshReferenceMetrics(pgQuery(client), { studyId: imported.id });
    await client.query("COMMIT");
    open = false;
    return imported;
  } finally {
    if (open) await client.query("ROLLBACK").catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

class ArchiveWriter implements ArchiveSink {
  checker!: ArchiveChecker;
  private head: ArchiveHead | null = null;
  private studyId = "";
  private base = "";
  private writing = false;
  private pending = batches();
  /** The specialty of each item in pending.items, resolved to ids when they are written. */
  private itemSpecialties: string[] = [];
  private pendingRows = 0;
  private pendingChars = 0;
  private readonly specialtyIds = new Map<string, string>();
  private modelIds: string[] = [];
  private userIds: string[] = [];
  private readonly itemIds: string[] = [];
  private readonly setIds: string[] = [];
  private readonly adjudicationIds = new Map<number, string>();
  private mapped: { grader: string; userId: string; email: string }[] = [];
  private readonly screenIds: string[] = [];
  private readonly counts = { items: 0, models: 0, sets: 0, answers: 0, graders: 0, assignments: 0, grades: 0, escalations: 0, screens: 0, qualitySets: 0, qualityTasks: 0 };
  /** A pairwise study's comparisons, assignments, preferences and escalations (./archive-comparisons.ts). */
  private readonly comparisonRows = new ComparisonRows();

  constructor(
    private readonly client: pg.ClientBase,
    private readonly o: ArchiveImportOptions,
  ) {}

  /** The head is read: check the admin's bindings, then write the study, its graders and models. */
  async open(): Promise<void> {
    const bound = await archiveBindings(this.client, this.o.map ?? [], this.checker);
    const head = this.checker.headOf();
    if (!head || this.checker.failed) return;
    this.head = head;
    const s = head.study;
    this.base = s.slug;
    // Another slug until the end (finish): a slug held by an open transaction would stall anyone creating that slug meanwhile.
    const studyId = (this.studyId = randomUUID());
    await writeArchivedStudy(this.client, studyId, s, this.o.actor.id);
    await this.client.query(`INSERT INTO "StudyMember" ("studyId", "userId", role) VALUES ($1, $2, 'LEAD')`, [studyId, this.o.actor.id]);
    await this.specialties([...head.specialties, ...head.graders.flatMap((g) => g.specialties)]);

    // Graders: new pseudonymous accounts, numbered in the document's order so a re-export with identities keeps it.
    const tag = randomBytes(6).toString("hex");
    const fresh = head.graders.flatMap((g, i) =>
      bound.has(g.id)
        ? []
        : [{ id: randomUUID(), email: `archived-${tag}-${String(i + 1).padStart(6, "0")}@placeholder.invalid`, name: `Archived grader ${g.id} (${head.source.slug})`, grader: g }],
    );
    const now = new Date().toISOString();
    const users = new Batch("User", [["id", "uuid"], ["email", "text"], ["name", "text"], ["passwordHash", "text"], ["role", '"Role"'], ["active", "bool"], ["updatedAt", T]]);
    for (const u of fresh) users.push(u.id, u.email, u.name, NO_PASSWORD, "GRADER", false, now);
    await users.write(this.client);
    const freshId = new Map(fresh.map((u) => [u.grader.id, u.id]));
    this.userIds = head.graders.map((g) => bound.get(g.id)?.id ?? freshId.get(g.id)!);
    this.mapped = head.graders.flatMap((g) => {
      const b = bound.get(g.id);
      return b ? [{ grader: g.id, userId: b.id, email: b.email }] : [];
    });
    const members = new Batch("StudyMember", [["studyId", "uuid"], ["userId", "uuid"], ["role", '"StudyRole"'], ["active", "bool"], ["addedAt", T], ["calibrationPassedAt", T]]);
    // The archive's specialties are each grader's in this study only, never their account's.
    const memberSpecialties = new Batch("StudyMemberSpecialty", [["studyId", "uuid"], ["userId", "uuid"], ["specialtyId", "uuid"]]);
    head.graders.forEach((g, i) => {
      if (!g.membership) return;
      members.push(studyId, this.userIds[i], "GRADER", g.membership.active, d(g.membership.addedAt), dn(g.membership.calibrationPassedAt ?? null));
      for (const id of new Set(g.specialties.map((n) => this.specialtyIds.get(specialtyKey(n))!))) memberSpecialties.push(studyId, this.userIds[i], id);
    });
    await members.write(this.client);
    await memberSpecialties.write(this.client);
    this.counts.graders = head.graders.length;

    this.modelIds = head.models.map(() => randomUUID());
    const models = new Batch("LlmModel", [["id", "uuid"], ["studyId", "uuid"], ["name", "text"], ["version", "text"], ["temperature", "float8"], ["topP", "float8"], ["settings", "jsonb"], ["createdAt", T]]);
    head.models.forEach((m, i) => models.push(this.modelIds[i], studyId, m.name, m.version, m.temperature, m.topP, m.settings === null ? null : JSON.stringify(m.settings), d(m.createdAt)));
    await models.write(this.client);
    this.counts.models = head.models.length;
    this.writing = true;
  }

  /** Ids of specialties by name, created when new (shared by the whole instance, matched whatever their case). */
  private async specialties(names: string[]): Promise<void> {
    const missing = [...new Set(names.map(specialtyKey))].filter((k) => !this.specialtyIds.has(k));
    if (!missing.length) return;
    const found = await specialtyIdsFor(onConnection(this.client), names.filter((n) => missing.includes(specialtyKey(n))));
    for (const [k, id] of found) this.specialtyIds.set(k, id);
  }

  private more(rows: number, chars: number): void {
    this.pendingRows += rows;
    this.pendingChars += chars;
  }

  item(index: number, i: ItemDoc): void {
    if (!this.writing) return;
    const id = (this.itemIds[index] = randomUUID());
    this.pending.items.push(id, this.studyId, i.id, i.question, i.referenceAnswer, null, d(i.createdAt), d(i.updatedAt));
    this.itemSpecialties.push(i.specialty);
    this.counts.items++;
    this.more(1, i.question.length + i.referenceAnswer.length);
  }

  set(index: number, item: number, model: number, x: SetDoc): void {
    if (!this.writing) return;
    const id = (this.setIds[index] = randomUUID());
    this.pending.sets.push(id, this.studyId, this.itemIds[item], this.modelIds[model], x.status, d(x.createdAt), d(x.updatedAt));
    let chars = 0;
    for (const a of x.answers) {
      this.pending.answers.push(randomUUID(), id, a.repetition, a.text, d(a.createdAt), d(a.updatedAt));
      chars += a.text.length;
    }
    // The decision's author is the lead importing it (the archive names no leads); its note and time are kept.
    if (x.decision) this.pending.decisions.push(id, x.decision.decision, x.decision.note, this.o.actor.id, d(x.decision.decidedAt));
    this.counts.sets++;
    this.counts.answers += x.answers.length;
    this.more(1 + x.answers.length, chars);
  }

  assignment(key: number, set: number, grader: number, a: ArchiveAssignment): void {
    if (!this.writing) return;
    const id = randomUUID();
    if (a.kind === "ADJUDICATOR") this.adjudicationIds.set(key, id);
    this.pending.assignments.push(
      id,
      this.setIds[set],
      this.studyId,
      this.userIds[grader],
      a.kind,
      a.position,
      a.status,
      a.timeSpentMs,
      a.harmFlag,
      a.harmComment,
      a.contradictionFlag,
      a.contradictionNote,
      d(a.createdAt),
      d(a.updatedAt),
      dn(a.startedAt),
      dn(a.submittedAt),
    );
    let chars = (a.harmComment?.length ?? 0) + (a.contradictionNote?.length ?? 0);
    for (const g of a.grades) {
      this.pending.grades.push(randomUUID(), id, g.rubric, g.dimension, g.repetition, g.criterion, g.score, g.category, g.na, g.comment, d(g.createdAt), d(g.updatedAt));
      chars += g.comment?.length ?? 0;
    }
    this.counts.assignments++;
    this.counts.grades += a.grades.length;
    this.more(1 + a.grades.length, chars);
  }

  escalation(set: number, adjudicatorKey: number | null, e: EscalationDoc): void {
    if (!this.writing) return;
    const graders = this.checker.graderIds;
    // Each grader's value is keyed by their account here, by their document id in the archive.
    const dimensions = e.dimensions.map((dim) => ({ ...dim, values: Object.fromEntries(Object.entries(dim.values).map(([k, v]) => [this.userIds[graders.get(k)!], v])) }));
    const adjudication = adjudicatorKey === null ? null : this.adjudicationIds.get(adjudicatorKey)!;
    this.pending.escalations.push(randomUUID(), this.setIds[set], e.status, JSON.stringify(dimensions), adjudication, d(e.createdAt), d(e.updatedAt), dn(e.resolvedAt));
    this.counts.escalations++;
    this.more(1, 0);
  }

  /** A screen run, as the importer's (who ran it is not in the document); a judge's endpoint is not carried either. */
  screen(index: number, x: ScreenDoc): void {
    if (!this.writing) return;
    const id = (this.screenIds[index] = randomUUID());
    const judge = x.judge ? JSON.stringify({ endpointId: null, ...x.judge }) : null;
    this.pending.screens.push(
      id,
      this.studyId,
      JSON.stringify(x.rules),
      x.action === "warn" ? "WARN" : "EXCLUDE",
      x.answers,
      this.o.actor.id,
      d(x.createdAt),
      x.status,
      judge,
      dn(x.finishedAt),
      x.error,
      x.withdrawn,
      x.keptGraded,
    );
    this.counts.screens++;
    this.more(1, 0);
  }

  screenHit(screen: number, set: number, h: ScreenHitDoc): void {
    if (!this.writing) return;
    this.pending.screenHits.push(this.setIds[set], h.repetition, this.screenIds[screen], h.rule, h.matches, h.excerpt);
    this.more(1, h.excerpt.length);
  }

  comparison(item: number, left: number, right: number, graders: number[], c: ComparisonDoc): void {
    if (!this.writing) return;
    this.more(this.comparisonRows.push(this.studyId, this.itemIds[item], this.setIds[left], this.setIds[right], this.userIds, graders, c), 0);
  }

  screenVerdict(screen: number, set: number, v: ScreenVerdictDoc): void {
    if (!this.writing) return;
    this.pending.screenVerdicts.push(this.setIds[set], v.repetition, this.screenIds[screen], v.flagged, v.reason, d(v.createdAt));
    this.more(1, v.reason.length);
  }

  /** A calibration or gold set, its author the importing lead (the archive names no leads). */
  qualitySet(set: number, x: QualitySetDoc): void {
    if (!this.writing) return;
    this.pending.qualitySets.push(randomUUID(), this.studyId, this.setIds[set], x.purpose, JSON.stringify(x.expected), x.tolerance, x.rationale, this.o.actor.id, d(x.createdAt), d(x.updatedAt));
    this.counts.qualitySets++;
    this.more(1, x.rationale.length);
  }

  qualityTask(set: number, grader: number, x: QualityTaskDoc): void {
    if (!this.writing) return;
    const id = randomUUID();
    this.pending.qualityTasks.push(
      id,
      this.studyId,
      this.userIds[grader],
      this.setIds[set],
      x.purpose,
      x.round,
      x.position,
      x.status,
      `{${x.answerOrder.join(",")}}`,
      d(x.availableAt),
      x.timeSpentMs,
      x.harmFlag,
      x.harmComment,
      x.contradictionFlag,
      x.contradictionNote,
      d(x.createdAt),
      d(x.updatedAt),
      dn(x.startedAt),
      dn(x.submittedAt),
    );
    let chars = (x.harmComment?.length ?? 0) + (x.contradictionNote?.length ?? 0);
    for (const g of x.grades) {
      this.pending.qualityGrades.push(randomUUID(), id, g.rubric, g.dimension, g.repetition, g.criterion, g.score, g.category, g.na, g.comment, d(g.createdAt), d(g.updatedAt));
      chars += g.comment?.length ?? 0;
    }
    this.counts.qualityTasks++;
    this.more(1 + x.grades.length, chars);
  }

  /** Sends what has gathered (all of it with `force`); once the document shows a problem, drops it instead. */
  async flush(force: boolean): Promise<void> {
    if (!this.writing || this.checker.failed) {
      this.writing = false;
      this.pending = batches();
      this.comparisonRows.drop();
      this.itemSpecialties = [];
      return;
    }
    if (!force && this.pendingRows < CHUNK && this.pendingChars < FLUSH_CHARS) return;
    this.pendingRows = 0;
    this.pendingChars = 0;
    const p = this.pending;
    if (p.items.length) {
      const names = this.itemSpecialties;
      this.itemSpecialties = [];
      await this.specialties(names);
      const ids = p.items.column("specialtyId");
      names.forEach((n, i) => (ids[i] = this.specialtyIds.get(specialtyKey(n))!));
    }
    // In the order of their foreign keys.
    for (const b of [p.items, p.sets, p.answers, p.decisions, p.assignments, p.grades, p.escalations, p.screens, p.screenHits, p.screenVerdicts, p.qualitySets, p.qualityTasks, p.qualityGrades]) {
      await b.write(this.client);
    }
    await this.comparisonRows.write(this.client);
  }

  /** The study's own slug (the next free one), then the audit event. */
  async finish(): Promise<ImportedArchive> {
    const head = this.head!;
    const { rows: taken } = await this.client.query<{ slug: string }>(`SELECT slug FROM "Study" WHERE starts_with(slug, $1)`, [this.base]);
    let slug = pickUniqueSlug(this.base, taken.map((t) => t.slug));
    // A study created meanwhile by another transaction may take the same slug: fall back to a random suffix.
    const rename = (to: string) => this.client.query(`UPDATE "Study" SET slug = $2, "updatedAt" = now() WHERE id = $1`, [this.studyId, to]);
    await this.client.query("SAVEPOINT archive_slug");
    try {
      await rename(slug);
    } catch (err) {
      if ((err as { code?: string }).code !== "23505") throw err;
      await this.client.query("ROLLBACK TO SAVEPOINT archive_slug");
      slug = randomSlugSuffix(this.base);
      await rename(slug);
    }
    await this.client.query("RELEASE SAVEPOINT archive_slug");
    const pseudonymous = head.graders.length - this.mapped.length;
    const audit = auditInsertSql({
      actorId: this.o.actor.id,
      action: "study.import_archive",
      entityType: "Study",
      entityId: this.studyId,
      studyId: this.studyId,
      after: {
        slug,
        source: head.source,
        exportedAt: head.exportedAt,
        identities: head.identities,
        counts: { ...this.counts, ...(this.comparisonRows.comparisons ? { comparisons: this.comparisonRows.comparisons, preferences: this.comparisonRows.preferences } : {}) },
        pseudonymousAccounts: pseudonymous,
        mappedAccounts: this.mapped,
      },
      requestId: this.o.actor.requestId,
    });
    await this.client.query(audit.text, audit.values as unknown[]);
    return { id: this.studyId, slug, pseudonymous, mapped: this.mapped.length };
  }
}

type ItemDoc = StudyArchive["items"][number];
type SetDoc = StudyArchive["sets"][number];
type EscalationDoc = StudyArchive["escalations"][number];
type ScreenDoc = NonNullable<StudyArchive["screens"]>[number];
type ScreenHitDoc = NonNullable<StudyArchive["screenHits"]>[number];
type ScreenVerdictDoc = NonNullable<StudyArchive["screenVerdicts"]>[number];
type QualitySetDoc = NonNullable<StudyArchive["qualitySets"]>[number];
type QualityTaskDoc = NonNullable<StudyArchive["qualityTasks"]>[number];
type ComparisonDoc = NonNullable<StudyArchive["comparisons"]>[number];

