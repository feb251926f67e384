import { createHash } from "node:crypto";
import { computeStudyStats } from "@/lib/analytics/study-stats";
import type { StudyStats } from "@/lib/analytics/types";
import { getDb, getPool } from "@/lib/db/client";
import { exportStream, type ExportStudy } from "@/lib/exports/service";
import type { Dataset } from "@/lib/exports/contract";
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
  checksums: { dataset: string; format: string; sha256: string; bytes: number; call: string }[] | null;
}

/** Datasets the tables can be recomputed from: their SHA-256 goes in the appendix. */
export const CHECKSUM_DATASETS: readonly Dataset[] = ["grades", "sets"];

async function sha256OfExport(study: ExportStudy, dataset: Dataset): Promise<{ sha256: string; bytes: number }> {
  const stream = await exportStream(study, { dataset, format: "csv", identities: false, audit: false });
  const hash = createHash("sha256");
  let bytes = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    hash.update(value);
    bytes += value.byteLength;
  }
  return { sha256: hash.digest("hex"), bytes };
}

export async function loadReportData(studyId: string, options: { checksums?: boolean } = {}): Promise<ReportData | null> {
  const db = getDb();
  const study = await db.study.findUnique({ where: { id: studyId } });
  if (!study) return null;
  const pool = getPool();
  // The exports' checksums are PostgreSQL's work mostly (a 10,000-set study's grades CSV is ~140 MB): started first, they run while this thread computes the statistics.
  const checksumsPending =
    options.checksums === false
      ? Promise.resolve(null)
      : Promise.all(CHECKSUM_DATASETS.map(async (dataset) => ({ dataset, format: "csv", ...(await sha256OfExport(study, dataset)), call: `export?dataset=${dataset}&format=csv` })));
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
