import { computeStudyStats } from "@/lib/analytics/study-stats";
import type { StudyStats } from "@/lib/analytics/types";
import { getDb, getPool } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";
import type { ExportStudy } from "@/lib/exports/service";
import { runInWorker } from "@/lib/workers/run";
import type { ExportChecksum } from "./checksums";
import { protocolState } from "@/lib/protocol/service";
import type { ProtocolState } from "@/lib/protocol/contract";

/** Everything the report states, read once (lib/report/build.ts turns it into sections). */
export interface ReportData {
  study: {
    id: string;
    name: string;
    slug: string;
    status: string;
    repetitions: number;
    gradersPerSet: number;
    assignmentSeed: string | null;
    assignmentDesign: string;
    matchSpecialty: boolean;
    showReferenceAnswer: boolean;
    closedAt: Date | null;
    /** Study.thresholds and Study.escalationRules as stored. */
    thresholds: unknown;
    escalationRules: unknown;
  };
  stats: StudyStats;
  protocol: ProtocolState;
  flow: { questions: number; answers: number; sets: number; assignedSets: number; gradedSets: number; escalated: number; adjudicated: number; finalSets: number; screenedOut: number; rejected: number; missingAssignments: number };
  graders: { total: number; bySpecialty: { specialty: string; graders: number }[] };
  harm: { flags: number; open: number; acknowledged: number; resolved: number };
  /** null when the caller did not ask for them (the page's preview: they cost a full read of each export). */
  checksums: ExportChecksum[] | null;
}

/** Heap of the checksums' thread: the `sets` export re-scores every set, as the dashboard does. */
const CHECKSUM_HEAP_MB = 1024;

export async function loadReportData(studyId: string, options: { checksums?: boolean } = {}): Promise<ReportData | null> {
  const db = getDb();
  const study = await db.study.findUnique({ where: { id: studyId } });
  if (!study) return null;
  const pool = getPool();
  // The exports' checksums read each export whole (a 10,000-set study's grades CSV is ~140 MB, and `sets` re-scores every
  // set): started first in a thread of their own, they run beside the statistics instead of after them on this event loop.
  const checksumsPending =
    options.checksums === false
      ? Promise.resolve(null)
      : runInWorker<ExportChecksum[]>("report-checksums", { id: study.id, slug: study.slug, rubrics: study.rubrics } satisfies ExportStudy, [], undefined, {
          heapMb: CHECKSUM_HEAP_MB,
          outOfMemory: (mb) => new ApiError(413, `the checksums of this study's exports need more than ${mb} MB of memory: download the exports and hash them yourself`),
        });
  // A failure of the statistics must not leave the checksums' rejection unhandled.
  checksumsPending.catch(() => undefined);
  const [stats, protocol, flowRow, graderRows, graderTotal, harmRow] = await Promise.all([
    // The report's tables use the journal block's model comparisons, not its agreement half (the dashboard's agreement block gives reliability).
    // Nor the heatmap's Cliff's delta cells: its comparisons table has the journal's Cliff's delta with Holm-adjusted p.
    computeStudyStats(studyId, { journal: "models" }, { cliffs: false }),
    protocolState(studyId),
    pool.query<Record<string, string>>(
      `SELECT
         (SELECT count(*) FROM "QaItem" WHERE "studyId" = $1::uuid) AS questions,
         (SELECT count(*) FROM "Response" r JOIN "ResponseSet" rs ON rs.id = r."responseSetId" WHERE rs."studyId" = $1::uuid) AS answers,
         (SELECT count(*) FROM "ResponseSet" WHERE "studyId" = $1::uuid) AS sets,
         (SELECT count(DISTINCT "responseSetId") FROM "Assignment" WHERE "studyId" = $1::uuid AND kind = 'PRIMARY' AND status <> 'CANCELLED') AS assigned,
         (SELECT count(*) FROM "ResponseSet" rs WHERE rs."studyId" = $1::uuid AND rs.status IN ('AGREED', 'AWAITING_ADJUDICATION', 'ADJUDICATED')) AS graded,
         (SELECT count(*) FROM "Escalation" e JOIN "ResponseSet" rs ON rs.id = e."responseSetId" WHERE rs."studyId" = $1::uuid AND e.status <> 'CANCELLED') AS escalated,
         (SELECT count(*) FROM "ResponseSet" WHERE "studyId" = $1::uuid AND status = 'ADJUDICATED') AS adjudicated,
         (SELECT count(*) FROM "ResponseSet" WHERE "studyId" = $1::uuid AND status IN ('AGREED', 'ADJUDICATED')) AS final,
         (SELECT count(DISTINCT h."responseId") FROM "ScreenHit" h JOIN "ScreenRun" sr ON sr.id = h."runId"
           WHERE sr."studyId" = $1::uuid AND sr.action = 'EXCLUDE'
             AND sr."createdAt" = (SELECT max("createdAt") FROM "ScreenRun" WHERE "studyId" = $1::uuid)) AS screened,
         (SELECT count(*) FROM "SetDecision" d JOIN "ResponseSet" rs ON rs.id = d."responseSetId" WHERE rs."studyId" = $1::uuid AND d.decision = 'REJECTED') AS rejected,
         (SELECT count(*) FROM "Assignment" WHERE "studyId" = $1::uuid AND kind = 'PRIMARY' AND status IN ('PENDING', 'IN_PROGRESS')) AS missing`,
      [studyId],
    ),
    pool.query<{ specialty: string; graders: string }>(
      `SELECT s.name AS specialty, count(DISTINCT a."graderId") AS graders
       FROM "Assignment" a
       JOIN "StudyMemberSpecialty" ms ON ms."studyId" = a."studyId" AND ms."userId" = a."graderId"
       JOIN "Specialty" s ON s.id = ms."specialtyId"
       WHERE a."studyId" = $1::uuid AND a.status = 'SUBMITTED'
       GROUP BY s.name ORDER BY s.name`,
      [studyId],
    ),
    pool.query<{ n: string }>(`SELECT count(DISTINCT "graderId") AS n FROM "Assignment" WHERE "studyId" = $1::uuid AND status = 'SUBMITTED'`, [studyId]),
    pool.query<Record<string, string>>(
      `SELECT count(*) AS flags,
              count(*) FILTER (WHERE hr.status IS NULL OR hr.status = 'OPEN') AS open,
              count(*) FILTER (WHERE hr.status = 'ACKNOWLEDGED') AS acknowledged,
              count(*) FILTER (WHERE hr.status = 'RESOLVED') AS resolved
       FROM "Assignment" a LEFT JOIN "HarmReview" hr ON hr."assignmentId" = a.id
       WHERE a."studyId" = $1::uuid AND a."harmFlag"`,
      [studyId],
    ),
  ]);
  if (!stats) return null;
  const f = flowRow.rows[0];
  const n = (k: string) => Number(f[k] ?? 0);
  const checksums = await checksumsPending;
  const h = harmRow.rows[0];
  return {
    study: {
      id: study.id,
      name: study.name,
      slug: study.slug,
      status: study.status,
      repetitions: study.repetitions,
      gradersPerSet: study.gradersPerSet,
      assignmentSeed: study.assignmentSeed,
      assignmentDesign: study.assignmentDesign,
      matchSpecialty: study.matchSpecialty,
      showReferenceAnswer: study.showReferenceAnswer,
      closedAt: study.closedAt,
      thresholds: study.thresholds,
      escalationRules: study.escalationRules,
    },
    stats,
    protocol,
    flow: {
      questions: n("questions"),
      answers: n("answers"),
      sets: n("sets"),
      assignedSets: n("assigned"),
      gradedSets: n("graded"),
      escalated: n("escalated"),
      adjudicated: n("adjudicated"),
      finalSets: n("final"),
      screenedOut: n("screened"),
      rejected: n("rejected"),
      missingAssignments: n("missing"),
    },
    graders: { total: Number(graderTotal.rows[0]?.n ?? 0), bySpecialty: graderRows.rows.map((r) => ({ specialty: r.specialty, graders: Number(r.graders) })) },
    harm: { flags: Number(h.flags), open: Number(h.open), acknowledged: Number(h.acknowledged), resolved: Number(h.resolved) },
    checksums,
  };
}
