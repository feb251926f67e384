import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { storedTriageRule } from "@/lib/governance/service";
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, type ArchiveGrader } from "./contract";
import { comparisonSection, hasComparisons, pairwiseStudyFields } from "./archive-comparisons";
import { auditRecords } from "./audit";
import { loadPeople, type RawQuery } from "./people";
import { sqlIso } from "./sql";
import type { ExportSession } from "./session";

/**
 * The `study` dataset: the whole study as one JSON document, streamed section
 * by section from one snapshot (the export session's REPEATABLE READ
 * transaction), big sections (items, sets with their answers, assignments
 * with their grades) through cursors.
 *
 * The document names things by what they are, not by database ids: items by
 * item_id, models by name, sets by (item, model), graders by document ids
 * G1..Gn, an adjudication by (set, grader). Orders are fixed (byte order,
 * COLLATE "C", independent of the server's locale), and graders are numbered
 * by a key that survives an import (email with identities, which the import's
 * pseudonymous accounts number in the document's order; else when they
 * joined, their specialties and a digest of their work). So importing a
 * document (lib/exports/archive-import.ts) and exporting the new study again
 * gives the same document except: exportedAt, source (the study id and slug
 * it came from), study.createdAt and study.updatedAt (the import creates the
 * study), study.slug if the slug was taken on the target instance, each
 * grader's pseudonym (derived from the study and user ids) and, with
 * identities, each grader's name and email (the import's accounts are
 * pseudonymous). The optional audit section is informative and is not imported.
 */

const ms = (expr: string) => `(extract(epoch from ${expr}) * 1000)::bigint`;
const C = (expr: string) => `${expr} COLLATE "C"`;

interface GraderRow {
  id: string;
  name: string;
  email: string;
  member_active: boolean | null;
  added_at: Date | null;
  passed_at: Date | null;
  specialties: string[];
  signature: string | null;
  [key: string]: unknown;
}

export async function graderOrder(query: RawQuery, studyId: string, identities: boolean): Promise<{ row: GraderRow; docId: string }[]> {
  const rows = await query<GraderRow>(
    `WITH g AS (
       SELECT "userId" AS id FROM "StudyMember" WHERE "studyId" = $1::uuid AND role = 'GRADER'
       UNION
       SELECT a."graderId" FROM "Assignment" a WHERE a."studyId" = $1::uuid
       UNION
       SELECT ca."graderId" FROM "ComparisonAssignment" ca WHERE ca."studyId" = $1::uuid)
     SELECT u.id, u.name, u.email, sm.active AS member_active, sm."addedAt" AS added_at, sm."calibrationPassedAt" AS passed_at,
            COALESCE((SELECT array_agg(sp.name ORDER BY ${C("sp.name")}) FROM "StudyMemberSpecialty" ms JOIN "Specialty" sp ON sp.id = ms."specialtyId"
                       WHERE ms."studyId" = $1::uuid AND ms."userId" = u.id), '{}') AS specialties,
            (SELECT md5(string_agg(concat_ws('|', qi."externalId", m.name, a.kind, a.position, a.status, a."timeSpentMs", a."harmFlag", a."harmComment",
                                             a."contradictionFlag", a."contradictionNote", ${ms('a."createdAt"')}, ${ms('a."updatedAt"')}, ${ms('a."startedAt"')}, ${ms('a."submittedAt"')},
                                             (SELECT string_agg(concat_ws(',', gr.rubric, gr.dimension, gr.repetition, gr.criterion, gr.score, gr.category, gr.na, gr.comment,
                                                                          ${ms('gr."createdAt"')}, ${ms('gr."updatedAt"')}),
                                                                ';' ORDER BY gr.rubric, gr.dimension, gr.repetition, gr.criterion)
                                                FROM "Grade" gr WHERE gr."assignmentId" = a.id)),
                                   E'\\n' ORDER BY ${C('qi."externalId"')}, ${C("m.name")}, a.kind))
               FROM "Assignment" a JOIN "ResponseSet" rs ON rs.id = a."responseSetId"
               JOIN "QaItem" qi ON qi.id = rs."itemId" JOIN "LlmModel" m ON m.id = rs."modelId"
              WHERE a."graderId" = u.id AND rs."studyId" = $1::uuid) AS signature
       FROM g JOIN "User" u ON u.id = g.id
       LEFT JOIN "StudyMember" sm ON sm."studyId" = $1::uuid AND sm."userId" = u.id AND sm.role = 'GRADER'`,
    [studyId],
  );
  const key = (r: GraderRow) =>
    [identities ? r.email : "", r.added_at ? String(r.added_at.getTime()).padStart(16, "0") : "~", r.specialties.join("\u0001"), String(r.member_active), r.signature ?? ""];
  const cmp = (a: GraderRow, b: GraderRow) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return 0;
  };
  return rows.sort(cmp).map((row, i) => ({ row, docId: `G${i + 1}` }));
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const QUALITY_DEFAULTS = { goldRate: null, goldSeed: null, washoutShare: 0, washoutDays: 0, washoutSeed: null, calibrationRequired: false, calibrationPassShare: 0.8, calibrationRoundSize: 5 };

/**
 * A grader's piece of work as the archive keeps it, the same for an assignment and a quality task
 * (`alias`): time on task, flags, times, and its grades (`grades`: the grade table and its key,
 * "<table> g WHERE g.<fk> = <alias>.id") as JSON in their key order.
 */
function workColumnsSql(alias: string, grades: string): string {
  return `${alias}."timeSpentMs"::float8 AS "timeSpentMs", ${alias}."harmFlag", ${alias}."harmComment", ${alias}."contradictionFlag", ${alias}."contradictionNote",
            ${alias}."createdAt", ${alias}."updatedAt", ${alias}."startedAt", ${alias}."submittedAt",
            COALESCE((SELECT json_agg(json_build_object('rubric', g.rubric, 'dimension', g.dimension, 'repetition', g.repetition, 'criterion', g.criterion,
                                                        'score', g.score, 'category', g.category, 'na', g.na, 'comment', g.comment,
                                                        'createdAt', ${sqlIso('g."createdAt"')}, 'updatedAt', ${sqlIso('g."updatedAt"')})
                              ORDER BY g.rubric, g.dimension, g.repetition, g.criterion)
                        FROM ${grades}), '[]'::json) AS grades`;
}

/** workColumnsSql's columns in the document, in its order. */
function workRecord(r: Record<string, unknown>) {
  return {
    timeSpentMs: r.timeSpentMs,
    harmFlag: r.harmFlag,
    harmComment: r.harmComment,
    contradictionFlag: r.contradictionFlag,
    contradictionNote: r.contradictionNote,
    createdAt: iso(r.createdAt as Date),
    updatedAt: iso(r.updatedAt as Date),
    startedAt: iso(r.startedAt as Date | null),
    submittedAt: iso(r.submittedAt as Date | null),
    grades: r.grades,
  };
}

/** The study's grader-quality settings, or null where every one is its default. */
function qualitySettings(study: Record<string, unknown>) {
  const q = Object.fromEntries(Object.keys(QUALITY_DEFAULTS).map((k) => [k, study[k]])) as typeof QUALITY_DEFAULTS;
  return Object.entries(QUALITY_DEFAULTS).every(([k, v]) => q[k as keyof typeof q] === v) ? null : q;
}

export async function* archiveChunks(session: ExportSession, studyId: string, opts: { identities: boolean; audit: boolean; now?: Date }): AsyncGenerator<string> {
  const q = session.rawQuery;
  const [study] = await q<Record<string, unknown>>(
    `SELECT name, slug, description, "graderTitle", rubrics, repetitions, "gradersPerSet", thresholds, "escalationRules", "showReferenceAnswer", "matchSpecialty",
            "askContradictions", "triageRule", "safeLlmScoring"::text AS "safeLlmScoring", "assignmentSeed", "assignmentDesign"::text AS "assignmentDesign", status::text AS status, "createdAt", "updatedAt", "openedAt", "closedAt",
            "goldRate", "goldSeed", "washoutShare", "washoutDays", "washoutSeed", "calibrationRequired", "calibrationPassShare", "calibrationRoundSize",
            design::text AS design, "pairDesign", "pairSeed", "tieDisagrees"
       FROM "Study" WHERE id = $1::uuid`,
    [studyId],
  );
  if (!study) throw new Error("study not found");
  const people = await loadPeople(q, studyId);
  const graders = await graderOrder(q, studyId, opts.identities);
  const docIdOf = new Map(graders.map((g) => [g.row.id, g.docId]));
  const specialties = await q<{ name: string }>(
    `SELECT sp.name FROM "Specialty" sp
      WHERE sp.id IN (SELECT "specialtyId" FROM "QaItem" WHERE "studyId" = $1::uuid)
         OR sp.id IN (SELECT "specialtyId" FROM "StudyMemberSpecialty" WHERE "studyId" = $1::uuid)
      ORDER BY ${C("sp.name")}`,
    [studyId],
  );
  const models = await q<Record<string, unknown>>(
    `SELECT name, version, temperature, "topP", settings, "createdAt" FROM "LlmModel" WHERE "studyId" = $1::uuid ORDER BY ${C("name")}`,
    [studyId],
  );

  const head = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    exportedAt: (opts.now ?? new Date()).toISOString(),
    source: { studyId, slug: study.slug },
    identities: opts.identities,
    study: {
      name: study.name,
      slug: study.slug,
      description: study.description,
      graderTitle: study.graderTitle,
      rubrics: storedRubrics(study.rubrics),
      repetitions: study.repetitions,
      gradersPerSet: study.gradersPerSet,
      thresholds: study.thresholds,
      // Only where the study departs from its documents' escalation rules, so other archives stay as they were.
      ...(study.escalationRules && Object.keys(study.escalationRules).length ? { escalationRules: study.escalationRules } : {}),
      showReferenceAnswer: study.showReferenceAnswer,
      askContradictions: study.askContradictions,
      // Only where the study has a rule of its own, like escalationRules.
      ...(storedTriageRule(study.triageRule) ? { triageRule: storedTriageRule(study.triageRule) } : {}),
      matchSpecialty: study.matchSpecialty,
      safeLlmScoring: study.safeLlmScoring,
      assignmentSeed: study.assignmentSeed,
      assignmentDesign: study.assignmentDesign,
      // Only where the study has grader-quality settings, so other archives stay as they were.
      ...(qualitySettings(study) ? { quality: qualitySettings(study) } : {}),
      status: study.status,
      createdAt: iso(study.createdAt as Date),
      updatedAt: iso(study.updatedAt as Date),
      openedAt: iso(study.openedAt as Date | null),
      closedAt: iso(study.closedAt as Date | null),
      ...pairwiseStudyFields(study),
    },
    specialties: specialties.map((s) => s.name),
    graders: graders.map(
      ({ row, docId }): ArchiveGrader => ({
        id: docId,
        pseudonym: people.get(row.id)?.pseudonym ?? "",
        name: opts.identities ? row.name : null,
        email: opts.identities ? row.email : null,
        specialties: row.specialties,
        membership: row.added_at
          ? { active: Boolean(row.member_active), addedAt: row.added_at.toISOString(), ...(row.passed_at ? { calibrationPassedAt: row.passed_at.toISOString() } : {}) }
          : null,
      }),
    ),
    models: models.map((m) => ({
      name: m.name,
      version: m.version,
      temperature: m.temperature,
      topP: m.topP,
      settings: m.settings ?? null,
      createdAt: iso(m.createdAt as Date),
    })),
  };
  const headJson = JSON.stringify(head, null, 1);
  yield headJson.slice(0, -2); // without the closing "\n}": the big sections follow

  async function* section<T extends Record<string, unknown>>(name: string, sql: string, params: unknown[], map: (r: T) => unknown, batch = 2000): AsyncGenerator<string> {
    let first = true;
    yield `,\n "${name}": [`;
    for await (const rows of session.cursor<T>(sql, params, batch)) {
      yield (first ? "\n" : ",\n") + rows.map((r) => JSON.stringify(map(r))).join(",\n");
      first = false;
    }
    yield first ? "]" : "\n ]";
  }

  yield* section<Record<string, unknown>>(
    "items",
    `SELECT qi."externalId" AS id, sp.name AS specialty, qi.question, qi."referenceAnswer", qi."createdAt", qi."updatedAt"
       FROM "QaItem" qi JOIN "Specialty" sp ON sp.id = qi."specialtyId"
      WHERE qi."studyId" = $1::uuid ORDER BY ${C('qi."externalId"')}`,
    [studyId],
    (r) => ({ id: r.id, specialty: r.specialty, question: r.question, referenceAnswer: r.referenceAnswer, createdAt: iso(r.createdAt as Date), updatedAt: iso(r.updatedAt as Date) }),
  );

  yield* section<Record<string, unknown>>(
    "sets",
    `SELECT qi."externalId" AS item, m.name AS model, rs.status, rs."createdAt", rs."updatedAt",
            COALESCE((SELECT json_agg(json_build_object('repetition', r.repetition, 'text', r.text, 'createdAt', ${sqlIso('r."createdAt"')}, 'updatedAt', ${sqlIso('r."updatedAt"')})
                              ORDER BY r.repetition)
                        FROM "Response" r WHERE r."responseSetId" = rs.id), '[]'::json) AS answers,
            d.decision::text AS decision, d.note AS "decisionNote", d."decidedAt"
       FROM "ResponseSet" rs JOIN "QaItem" qi ON qi.id = rs."itemId" JOIN "LlmModel" m ON m.id = rs."modelId"
       LEFT JOIN "SetDecision" d ON d."responseSetId" = rs.id
      WHERE rs."studyId" = $1::uuid ORDER BY ${C('qi."externalId"')}, ${C("m.name")}`,
    [studyId],
    (r) => ({
      item: r.item,
      model: r.model,
      status: r.status,
      createdAt: iso(r.createdAt as Date),
      updatedAt: iso(r.updatedAt as Date),
      answers: r.answers,
      ...(r.decision ? { decision: { decision: r.decision, note: r.decisionNote, decidedAt: iso(r.decidedAt as Date) } } : {}),
    }),
    1000,
  );

  const graderIds = graders.map((g) => g.row.id);
  const graderOrd = graders.map((_, i) => i);
  yield* section<Record<string, unknown>>(
    "assignments",
    `SELECT qi."externalId" AS item, m.name AS model, a."graderId" AS grader, a.kind, a.position, a.status, ${workColumnsSql("a", `"Grade" g WHERE g."assignmentId" = a.id`)}
       FROM "Assignment" a JOIN "ResponseSet" rs ON rs.id = a."responseSetId"
       JOIN "QaItem" qi ON qi.id = rs."itemId" JOIN "LlmModel" m ON m.id = rs."modelId"
       JOIN unnest($2::uuid[], $3::int[]) AS gm(id, ord) ON gm.id = a."graderId"
      WHERE rs."studyId" = $1::uuid
      ORDER BY ${C('qi."externalId"')}, ${C("m.name")}, a.kind, gm.ord`,
    [studyId, graderIds, graderOrd],
    (r) => ({
      item: r.item,
      model: r.model,
      grader: docIdOf.get(r.grader as string),
      kind: r.kind,
      position: r.position,
      status: r.status,
      ...workRecord(r),
    }),
    1000,
  );

  const mapValues = (dims: unknown) =>
    (Array.isArray(dims) ? dims : []).map((d: Record<string, unknown>) =>
      d && typeof d === "object" && d.values && typeof d.values === "object"
        ? { ...d, values: Object.fromEntries(Object.entries(d.values as Record<string, number>).map(([k, v]) => [docIdOf.get(k) ?? k, v])) }
        : d,
    );
  yield* section<Record<string, unknown>>(
    "escalations",
    `SELECT qi."externalId" AS item, m.name AS model, e.status, e.dimensions, a."graderId" AS adjudicator, e."createdAt", e."updatedAt", e."resolvedAt"
       FROM "Escalation" e JOIN "ResponseSet" rs ON rs.id = e."responseSetId"
       JOIN "QaItem" qi ON qi.id = rs."itemId" JOIN "LlmModel" m ON m.id = rs."modelId"
       LEFT JOIN "Assignment" a ON a.id = e."adjudicatorAssignmentId"
      WHERE rs."studyId" = $1::uuid ORDER BY ${C('qi."externalId"')}, ${C("m.name")}`,
    [studyId],
    (r) => ({
      item: r.item,
      model: r.model,
      status: r.status,
      dimensions: mapValues(r.dimensions),
      adjudicator: r.adjudicator ? (docIdOf.get(r.adjudicator as string) ?? null) : null,
      createdAt: iso(r.createdAt as Date),
      updatedAt: iso(r.updatedAt as Date),
      resolvedAt: iso(r.resolvedAt as Date | null),
    }),
  );

  // The safety screen's finished runs, then their rules' hits and their judge's verdicts, each naming its run by document id.
  const screens = await q<Record<string, unknown>>(
    `SELECT id, lower(action::text) AS action, status::text AS status, rules, judge, answers, withdrawn, "keptGraded", error, "createdAt", "finishedAt"
       FROM "ScreenRun" WHERE "studyId" = $1::uuid AND status <> 'RUNNING' ORDER BY "createdAt", id`,
    [studyId],
  );
  const screenIds = screens.map((r) => r.id as string);
  const screenDocId = new Map(screenIds.map((id, i) => [id, `S${i + 1}`]));
  const judgeDoc = (j: unknown) => {
    const x = j as { endpoint: string; model: string; prompt: string } | null;
    return x ? { endpoint: x.endpoint, model: x.model, prompt: x.prompt } : null;
  };
  const screenDocs = screens.map((x) => ({
    id: screenDocId.get(x.id as string),
    action: x.action,
    status: x.status,
    rules: x.rules,
    judge: judgeDoc(x.judge),
    answers: x.answers,
    withdrawn: x.withdrawn,
    keptGraded: x.keptGraded,
    error: x.error,
    createdAt: iso(x.createdAt as Date),
    finishedAt: iso(x.finishedAt as Date | null),
  }));
  // Few rows: written as the cursor sections write theirs.
  yield `,\n "screens": [${screenDocs.length ? `\n${screenDocs.map((x) => JSON.stringify(x)).join(",\n")}\n ]` : "]"}`;
  const screenAnswerSql = (table: string, cols: string, order: string) =>
    `SELECT t."runId" AS run, qi."externalId" AS item, m.name AS model, r.repetition, ${cols}
       FROM "${table}" t JOIN "Response" r ON r.id = t."responseId" JOIN "ResponseSet" rs ON rs.id = r."responseSetId"
       JOIN "QaItem" qi ON qi.id = rs."itemId" JOIN "LlmModel" m ON m.id = rs."modelId"
      WHERE t."runId" = ANY($1::uuid[])
      ORDER BY array_position($1::uuid[], t."runId"), ${C('qi."externalId"')}, ${C("m.name")}, r.repetition${order}`;
  yield* section<Record<string, unknown>>("screenHits", screenAnswerSql("ScreenHit", "t.rule, t.matches, t.excerpt", ", t.rule"), [screenIds], (r) => ({
    screen: screenDocId.get(r.run as string),
    item: r.item,
    model: r.model,
    repetition: r.repetition,
    rule: r.rule,
    matches: r.matches,
    excerpt: r.excerpt,
  }));
  yield* section<Record<string, unknown>>("screenVerdicts", screenAnswerSql("ScreenVerdict", 't.flagged, t.reason, t."createdAt"', ""), [screenIds], (r) => ({
    screen: screenDocId.get(r.run as string),
    item: r.item,
    model: r.model,
    repetition: r.repetition,
    flagged: r.flagged,
    reason: r.reason,
    createdAt: iso(r.createdAt as Date),
  }));

  // Grader quality (lib/quality-tasks): the marked sets, then each grader's tasks with their grades.
  yield* section<Record<string, unknown>>(
    "qualitySets",
    `SELECT qi."externalId" AS item, m.name AS model, qs.purpose::text AS purpose, qs.expected, qs.tolerance, qs.rationale, qs."createdAt", qs."updatedAt"
       FROM "QualitySet" qs JOIN "ResponseSet" rs ON rs.id = qs."responseSetId"
       JOIN "QaItem" qi ON qi.id = rs."itemId" JOIN "LlmModel" m ON m.id = rs."modelId"
      WHERE qs."studyId" = $1::uuid ORDER BY ${C('qi."externalId"')}, ${C("m.name")}`,
    [studyId],
    (r) => ({ item: r.item, model: r.model, purpose: r.purpose, expected: r.expected, tolerance: r.tolerance, rationale: r.rationale, createdAt: iso(r.createdAt as Date), updatedAt: iso(r.updatedAt as Date) }),
  );
  yield* section<Record<string, unknown>>(
    "qualityTasks",
    `SELECT qi."externalId" AS item, m.name AS model, t."graderId" AS grader, t.purpose::text AS purpose, t.round, t.position, t.status::text AS status, t."answerOrder",
            t."availableAt", ${workColumnsSql("t", `"QualityGrade" g WHERE g."taskId" = t.id`)}
       FROM "QualityTask" t JOIN "ResponseSet" rs ON rs.id = t."responseSetId"
       JOIN "QaItem" qi ON qi.id = rs."itemId" JOIN "LlmModel" m ON m.id = rs."modelId"
       JOIN unnest($2::uuid[], $3::int[]) AS gm(id, ord) ON gm.id = t."graderId"
      WHERE t."studyId" = $1::uuid
      ORDER BY ${C('qi."externalId"')}, ${C("m.name")}, gm.ord, t.purpose, t.round`,
    [studyId, graderIds, graderOrd],
    (r) => ({
      item: r.item,
      model: r.model,
      grader: docIdOf.get(r.grader as string),
      purpose: r.purpose,
      round: r.round,
      position: r.position,
      status: r.status,
      answerOrder: r.answerOrder,
      availableAt: iso(r.availableAt as Date),
      ...workRecord(r),
    }),
    1000,
  );

  // A pairwise study's comparisons, with their graders' preferences (./archive-comparisons.ts).
  if (await hasComparisons(session, studyId)) {
    const c = comparisonSection(studyId, graderIds, docIdOf);
    yield* section<Record<string, unknown>>("comparisons", c.sql, c.params, c.map, 500);
  }

  if (opts.audit) {
    let first = true;
    yield `,\n "audit": [`;
    for await (const batch of auditRecords(session, studyId, people, opts.identities)) {
      yield (first ? "\n" : ",\n") + batch.map((r) => JSON.stringify(r)).join(",\n");
      first = false;
    }
    yield first ? "]" : "\n ]";
  }
  yield "\n}\n";
}
