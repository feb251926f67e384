import { sql } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { offsetOf, type Page } from "@/lib/tables/search-params";
import { graderFacingTitleSql } from "@/lib/studies/grader-title";
import { setLetter, type QueueQuery, type QueueStatus } from "./params";
import { queueOrderSql } from "@/lib/grading/queue-order";
import { graderWorkSql } from "@/lib/grading/mine";
import { questionPreview } from "./preview";
import { dealOwedQuality } from "@/lib/quality-tasks/deal";

/**
 * The grader's queue, read one study and one page at a time, so a queue of
 * thousands of sets costs what a page of 25 costs to draw. Only the grader's
 * own work: nothing returned names a model, its version or another grader.
 * Sets of the same question are told apart by a neutral letter ("Set A, B,
 * C") in the grader's own random order, which says nothing about the model.
 * Third-grader sets come first: a set waiting for its third grade holds up
 * that set's final scores (lib/grading/queue-order.ts).
 */

/** The grader's own work, assignments and quality tasks alike (lib/grading/mine.ts, shared with the grading page). */
const mineSql = graderWorkSql;

export interface QueueStudy {
  id: string;
  /** The grader-facing title, never the study's internal name. */
  title: string;
  open: boolean;
  total: number;
  submitted: number;
  drafts: number;
  /** The set "Next" opens in this study: a third-grader set, else the first draft, else the first set not started (open studies only). */
  nextId: string | null;
}

/** One line per study of the grader's, with its progress and its next set: open studies first. */
export async function listQueueStudies(graderId: string): Promise<QueueStudy[]> {
  // A grader who joined after the quality settings, or whose queue grew, gets their calibration round and gold first.
  await dealOwedQuality(graderId);
  const rows = await sql.rows<Omit<QueueStudy, "total" | "submitted" | "drafts"> & { total: bigint | number; submitted: bigint | number; drafts: bigint | number }>(Prisma.sql`
    WITH mine AS (${mineSql(graderId)}),
    per_study AS (
      SELECT "studyId", bool_or(study_status = 'OPEN') AS open, count(*) AS total,
             count(*) FILTER (WHERE status = 'SUBMITTED') AS submitted,
             count(*) FILTER (WHERE status = 'IN_PROGRESS') AS drafts,
             min(position) AS first_position
      FROM mine GROUP BY "studyId"
    ),
    next AS (
      SELECT DISTINCT ON ("studyId") "studyId", id
      FROM mine
      WHERE study_status = 'OPEN' AND status IN ('PENDING', 'IN_PROGRESS')
      ORDER BY "studyId", (kind = 'ADJUDICATOR') DESC, (status = 'IN_PROGRESS') DESC, position, id
    )
    SELECT st.id, ${graderFacingTitleSql("st")} AS title, p.open, p.total, p.submitted, p.drafts, next.id AS "nextId"
    FROM per_study p
    JOIN "Study" st ON st.id = p."studyId"
    LEFT JOIN next ON next."studyId" = p."studyId"
    ORDER BY p.open DESC, (next.id IS NULL), st."openedAt" NULLS LAST, st.id`);
  return rows.map((r) => ({ ...r, total: Number(r.total), submitted: Number(r.submitted), drafts: Number(r.drafts) }));
}

export interface QueueRow {
  id: string;
  /** 1-based place in the grader's order within the study. */
  number: number;
  specialty: string;
  /** What the queue shows of the question: the lead's preview, else its last paragraph (lib/queue/preview.ts). */
  question: string;
  /** "Set A", "Set B"… when the grader has several sets of this question, else null. */
  setLabel: string | null;
  kind: "PRIMARY" | "ADJUDICATOR";
  status: "PENDING" | "IN_PROGRESS" | "SUBMITTED";
  studyOpen: boolean;
}

const STATUS_SQL: Record<QueueStatus, string> = { todo: "PENDING", draft: "IN_PROGRESS", submitted: "SUBMITTED" };

/**
 * One page of one study's sets in the grader's order. The letters and the
 * numbers are computed over the whole study before the status filter and the
 * page, so a set keeps its label whichever page or filter shows it.
 */
export async function listQueuePage(graderId: string, studyId: string, query: Pick<QueueQuery, "status" | "page" | "pageSize">): Promise<Page<QueueRow>> {
  const status = query.status ? STATUS_SQL[query.status] : null;
  const rows = await sql.rows<{
    id: string;
    number: bigint | number;
    letter: bigint | number;
    sets: bigint | number;
    specialty: string;
    question: string;
    preview: string | null;
    kind: QueueRow["kind"];
    status: QueueRow["status"];
    studyOpen: boolean;
    total: bigint | number;
  }>(Prisma.sql`
    WITH mine AS (${mineSql(graderId)}),
    numbered AS (
      SELECT mine.*, rs."itemId",
             row_number() OVER (ORDER BY ${queueOrderSql("mine")}) AS number,
             row_number() OVER (PARTITION BY rs."itemId" ORDER BY mine.position, mine.id) AS letter,
             count(*) OVER (PARTITION BY rs."itemId") AS sets
      FROM mine
      JOIN "ResponseSet" rs ON rs.id = mine."responseSetId"
      WHERE mine."studyId" = ${studyId}::uuid
    ),
    filtered AS (
      SELECT numbered.*, count(*) OVER () AS total FROM numbered WHERE ${status}::text IS NULL OR status = ${status}::text
    )
    SELECT f.id, f.number, f.letter, f.sets, sp.name AS specialty, q.question, q.preview, f.kind, f.status, f.study_status = 'OPEN' AS "studyOpen", f.total
    FROM filtered f
    JOIN "QaItem" q ON q.id = f."itemId"
    JOIN "Specialty" sp ON sp.id = q."specialtyId"
    ORDER BY f.number
    LIMIT ${query.pageSize} OFFSET ${offsetOf(query.page, query.pageSize)}`);
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && query.page > 1) {
    // Past the last page: count what there is, so the pager can lead back.
    const [c] = await sql.rows<{ n: bigint | number }>(Prisma.sql`
      WITH mine AS (${mineSql(graderId)})
      SELECT count(*) AS n FROM mine WHERE "studyId" = ${studyId}::uuid AND (${status}::text IS NULL OR status = ${status}::text)`);
    total = Number(c?.n ?? 0);
  }
  return {
    rows: rows.map((r) => ({
      id: r.id,
      number: Number(r.number),
      specialty: r.specialty,
      question: questionPreview(r.question, r.preview),
      setLabel: Number(r.sets) > 1 ? `Set ${setLetter(Number(r.letter))}` : null,
      kind: r.kind,
      status: r.status,
      studyOpen: r.studyOpen,
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}
