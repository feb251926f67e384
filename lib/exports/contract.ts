import { z } from "zod";
import { ASSIGNMENT_DESIGNS } from "@/lib/studies/assignment-design";
import { errorResponses, registry, uploadResponses } from "@/lib/api/registry";
import { RubricDocumentSchema } from "@/lib/rubrics/document";
import { EARLIER_RUBRIC_KEYS } from "./archive-rubrics";
import { MAX_COMMENT, MAX_CONTRADICTION_NOTE } from "@/lib/grading/contract-schemas";
import { TriageRuleSchema } from "@/lib/governance/contract";
import { MAX_NAME, MAX_TEXT } from "@/lib/import/validate";
import { escalationRulesInputSchema, LIMITS, thresholdsInputSchema } from "@/lib/studies/settings";
import { MAX_SCREEN_PROMPT } from "@/lib/screening/judge-prompt";
import { MAX_RULES, ScreenRuleSchema } from "@/lib/screening/rules";

/**
 * The exports contract: GET /api/v1/studies/{id}/export (every dataset, CSV or
 * JSON, streamed) and POST /api/v1/study-archives (import a `study` document
 * as a new study). The route handlers validate with these very schemas.
 */

export const DATASETS = ["grades", "score-long", "sets", "summary", "triage", "audit", "study", "judge-scores", "screening", "grader-quality", "comparisons", "quality-grades"] as const;
export type Dataset = (typeof DATASETS)[number];
export const FORMATS = ["csv", "json"] as const;
export type Format = (typeof FORMATS)[number];

const flag = (description: string) => z.enum(["0", "1", "true", "false"]).optional().meta({ description });

export const ExportQuery = z.strictObject(
  {
    dataset: z.enum(DATASETS, { error: `dataset must be one of ${DATASETS.join(", ")}` }).meta({ description: "Which dataset" }),
    format: z
      .enum(FORMATS, { error: "format must be csv or json" })
      .optional()
      .meta({ description: "csv (default) or json; the study dataset is JSON only" }),
    bom: flag("1: start a CSV with a UTF-8 byte-order mark (Excel then opens accents correctly)"),
    identities: flag("1: grader names and emails instead of pseudonyms only"),
    audit: flag("study dataset: 1 includes the audit trail (not re-imported)"),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown parameter ${issue.keys.join(", ")}` : "invalid query") },
);
export type ExportQuery = z.output<typeof ExportQuery>;

export const isOn = (v: string | undefined) => v === "1" || v === "true";

// ─────────────────────────────── study archive ───────────────────────────────

export const ARCHIVE_FORMAT = "clingrade-study-archive";
export const ARCHIVE_VERSION = 1;

/**
 * Limits: the CSV import's for what it shares with the archive (names of
 * items, models and specialties up to 200 characters, questions and answers
 * up to 1,000,000), the grading form's for comments, PostgreSQL's int4 for
 * counters; texts must be storable (no NUL, no lone surrogate). Repetitions
 * within the study's N are checked by the import, which knows N.
 */
export const ARCHIVE_LIMITS = { name: MAX_NAME, text: MAX_TEXT, comment: MAX_COMMENT, graders: 10_000, specialties: 10_000, models: 65_536, int: 2_147_483_647, position: 100_000_000 } as const;

const storable = (s: string) => !s.includes("\0") && s.isWellFormed();
const UNSTORABLE = "contains a NUL character or a lone surrogate, which cannot be stored";
const text = (max: number) => z.string().max(max, `is longer than ${max.toLocaleString("en")} characters`).refine(storable, UNSTORABLE);
const ref = z.string().min(1, "is empty").max(MAX_NAME, `is longer than ${MAX_NAME} characters`).refine(storable, UNSTORABLE);
const specialty = ref.refine((s) => s.trim() !== "", "is blank");
const count = z.int().min(0).max(ARCHIVE_LIMITS.int);
/** A place in a grader's queue: far below the integer column's limit, so the next one dealt (the last + 1) always fits. */
const position = z.int().min(0).max(ARCHIVE_LIMITS.position);
const iso = z.iso
  .datetime({ message: "must be an ISO 8601 time in UTC, e.g. 2026-01-31T12:00:00.000Z" })
  .refine((s) => {
    const d = new Date(s);
    return d.getUTCFullYear() >= 1970 && d.toISOString().slice(0, 10) === s.slice(0, 10);
  }, "must be a real date after 1970");

/** Any JSON value stored as jsonb: PostgreSQL refuses \u0000 and lone surrogates in it. */
function storableJson(v: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (typeof v === "string") return storable(v);
  if (Array.isArray(v)) return v.every((x) => storableJson(x, depth + 1));
  if (v && typeof v === "object") return Object.entries(v).every(([k, x]) => storable(k) && storableJson(x, depth + 1));
  return true;
}

const archiveKey = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,62}$/, "a rubric or dimension key");

export const ArchiveGrade = z.strictObject({
  rubric: archiveKey,
  dimension: archiveKey,
  repetition: z.int().min(0).max(LIMITS.repetitions.max).meta({ description: "1..N, or 0 for a dimension graded once for the whole set" }),
  /** Archives written before rubrics were data have none of criterion, category and na. */
  criterion: z.string().max(63).default(""),
  score: z.int().min(-1000).max(1000).nullable(),
  category: z.string().max(63).nullable().default(null),
  na: z.boolean().default(false),
  comment: text(MAX_COMMENT).nullable(),
  createdAt: iso,
  updatedAt: iso,
});

export const ArchiveAssignment = z.strictObject({
  item: ref.meta({ description: "The item's id (item_id)" }),
  model: ref.meta({ description: "The model's name" }),
  grader: ref.meta({ description: "A grader id of this document (graders[].id)" }),
  kind: z.enum(["PRIMARY", "ADJUDICATOR"]),
  position,
  status: z.enum(["PENDING", "IN_PROGRESS", "SUBMITTED", "CANCELLED"]),
  timeSpentMs: z.int().min(0).meta({ description: "milliseconds (a 64-bit count)" }),
  harmFlag: z.boolean(),
  harmComment: text(MAX_COMMENT).nullable(),
  /** The grader's contradiction flag on the set and its note; archives written before there were any have none. */
  contradictionFlag: z.boolean().default(false),
  contradictionNote: text(MAX_CONTRADICTION_NOTE).nullable().default(null),
  createdAt: iso,
  updatedAt: iso,
  startedAt: iso.nullable(),
  submittedAt: iso.nullable(),
  grades: z.array(ArchiveGrade).max(1000),
});

export const ArchiveGrader = z.strictObject({
  id: ref.meta({ description: "Stable within the document: G1, G2, ..." }),
  pseudonym: text(MAX_NAME).meta({ description: "The grader's pseudonym in the exported study (as in the other exports); informative only" }),
  name: text(MAX_NAME).nullable().meta({ description: "Only when exported with identities=1; informative only, never imported" }),
  email: text(320).nullable().meta({ description: "Only when exported with identities=1; informative only: the import never matches accounts by it" }),
  specialties: z.array(specialty).max(1000),
  membership: z
    .strictObject({
      active: z.boolean(),
      addedAt: iso,
      /** When the grader passed the study's calibration; absent: not passed (and archives written before calibration). */
      calibrationPassedAt: iso.optional(),
    })
    .nullable(),
});

export const ArchiveModel = z.strictObject({
  name: ref,
  version: text(MAX_NAME),
  temperature: z.number().min(0).max(10).nullable(),
  topP: z.number().min(0).max(1).nullable(),
  settings: z.unknown().refine(storableJson, UNSTORABLE).nullable(),
  createdAt: iso,
});

export const ArchiveItem = z.strictObject({
  id: ref.meta({ description: "item_id: the lead's own id of the question" }),
  specialty,
  question: text(MAX_TEXT),
  referenceAnswer: text(MAX_TEXT),
  createdAt: iso,
  updatedAt: iso,
});

export const ArchiveSet = z.strictObject({
  item: ref,
  model: ref,
  status: z.enum(["AWAITING_GRADES", "AGREED", "AWAITING_ADJUDICATION", "ADJUDICATED"]),
  createdAt: iso,
  updatedAt: iso,
  answers: z
    .array(z.strictObject({ repetition: z.int().min(1).max(LIMITS.repetitions.max), text: text(MAX_TEXT), createdAt: iso, updatedAt: iso }))
    .max(LIMITS.repetitions.max),
  /** The lead's triage decision on the final set (absent: none); the import records the importing lead as its author. */
  decision: z
    .strictObject({ decision: z.enum(["ACCEPTED", "REJECTED"]), note: text(2000).refine((n) => n.trim().length >= 3, "a decision needs a note of at least 3 characters"), decidedAt: iso })
    .optional(),
});

export const ArchiveEscalation = z.strictObject({
  item: ref,
  model: ref,
  status: z.enum(["NEEDS_GRADER", "ASSIGNED", "RESOLVED", "CANCELLED"]),
  dimensions: z
    .array(
      z.strictObject({
        rubric: archiveKey,
        dimension: archiveKey,
        spread: z.number().nullable(),
        threshold: z.number().nullable(),
        /** The rule that escalated and why, in words (archives written before per-dimension rules have neither). */
        rule: z.enum(["never", "any", "spread"]).optional(),
        reason: text(200).optional(),
        values: z.record(ref, z.union([z.number(), z.string().max(63)])),
      }),
    )
    .max(2000)
    .meta({ description: "What disagreed; each grader's value keyed by the document's grader id" }),
  adjudicator: ref.nullable().meta({ description: "The adjudicating grader (graders[].id): their ADJUDICATOR assignment on the set" }),
  createdAt: iso,
  updatedAt: iso,
  resolvedAt: iso.nullable(),
});

/** A finished safety screen run (lib/screening); a run in progress is not archived. Who ran it is not carried: the importer. */
export const ArchiveScreen = z.strictObject({
  id: z.string().regex(/^S[1-9][0-9]{0,5}$/, "a screen id of the document: S1, S2, ..."),
  action: z.enum(["warn", "exclude"]),
  status: z.enum(["DONE", "FAILED"]),
  rules: z.array(ScreenRuleSchema).max(MAX_RULES),
  judge: z.strictObject({ endpoint: text(MAX_NAME), model: text(MAX_NAME), prompt: text(MAX_SCREEN_PROMPT) }).nullable(),
  answers: count,
  withdrawn: count,
  keptGraded: count,
  error: text(1000).nullable(),
  createdAt: iso,
  finishedAt: iso.nullable(),
});

const screenAnswer = { screen: ref, item: ref, model: ref, repetition: z.int().min(1).max(LIMITS.repetitions.max) };
export const ArchiveScreenHit = z.strictObject({ ...screenAnswer, rule: z.int().min(0).max(MAX_RULES - 1), matches: count, excerpt: text(2000) });
export const ArchiveScreenVerdict = z.strictObject({ ...screenAnswer, flagged: z.boolean().nullable(), reason: text(5000), createdAt: iso });

/** The study's grader-quality settings (lib/quality-tasks); absent: the defaults (archives written before them, or a study that never set them). */
export const ArchiveQualitySettings = z.strictObject({
  goldRate: z.int().min(2).max(1000).nullable(),
  goldSeed: text(MAX_NAME).nullable(),
  washoutShare: z.number().min(0).max(1),
  washoutDays: z.int().min(0).max(365),
  washoutSeed: text(MAX_NAME).nullable(),
  calibrationRequired: z.boolean(),
  calibrationPassShare: z.number().min(0).max(1),
  calibrationRoundSize: z.int().min(1).max(100),
});

/** A set the lead marked as a calibration or gold set, with its expected ordinal scores (repetition 0: the whole set). The importing lead becomes its author. */
export const ArchiveQualitySet = z.strictObject({
  item: ref,
  model: ref,
  purpose: z.enum(["CALIBRATION", "GOLD"]),
  expected: z
    .array(z.strictObject({ rubric: archiveKey, dimension: archiveKey, repetition: z.int().min(0).max(LIMITS.repetitions.max), score: z.int().min(-1000).max(1000) }))
    .min(1)
    .max(2000),
  tolerance: z.int().min(0).max(1000),
  rationale: text(4000),
  createdAt: iso,
  updatedAt: iso,
});

/** A calibration, gold or washout re-grade task of a grader, with its grades; a re-grade's first grading is the grader's PRIMARY assignment on the same set. */
export const ArchiveQualityTask = z.strictObject({
  item: ref,
  model: ref,
  grader: ref.meta({ description: "A grader id of this document (graders[].id)" }),
  purpose: z.enum(["CALIBRATION", "GOLD", "REGRADE"]),
  round: z.int().min(1).max(ARCHIVE_LIMITS.int).meta({ description: "The calibration round; 1 for gold and re-grade tasks" }),
  position,
  status: z.enum(["PENDING", "IN_PROGRESS", "SUBMITTED", "CANCELLED"]),
  answerOrder: z.array(z.int().min(1).max(LIMITS.repetitions.max)).max(LIMITS.repetitions.max).meta({ description: "A re-grade's answers' order (shown answer i is repetition answerOrder[i-1]); empty: 1..N" }),
  availableAt: iso,
  timeSpentMs: z.int().min(0),
  harmFlag: z.boolean(),
  harmComment: text(MAX_COMMENT).nullable(),
  contradictionFlag: z.boolean(),
  contradictionNote: text(MAX_CONTRADICTION_NOTE).nullable(),
  createdAt: iso,
  updatedAt: iso,
  startedAt: iso.nullable(),
  submittedAt: iso.nullable(),
  grades: z.array(ArchiveGrade).max(1000),
});

// Pairwise studies (written only for them, so a scoring study's archive is as it was; absent: a scoring study).
const ARCHIVE_PAIRWISE_STUDY = {
  design: z.enum(["SCORING", "PAIRWISE"]).default("SCORING").meta({ description: "SCORING: sets scored on the rubrics; PAIRWISE: two answers compared (the comparisons section)" }),
  pairDesign: z.record(z.string(), z.unknown()).refine(storableJson, UNSTORABLE).nullable().default(null).meta({ description: "Pairwise: the pair design last planned" }),
  pairSeed: text(MAX_NAME).nullable().default(null),
  tieDisagrees: z.boolean().default(false),
};

const preferenceChoice = z.enum(["LEFT", "TIE", "RIGHT"]);

export const ArchivePreference = z.strictObject({
  rubric: archiveKey,
  axis: archiveKey,
  choice: preferenceChoice,
  strength: z.enum(["SLIGHTLY", "CLEARLY"]).nullable(),
  comment: text(MAX_COMMENT).nullable(),
  createdAt: iso,
  updatedAt: iso,
});

export const ArchiveComparisonAssignment = z.strictObject({
  grader: ref.meta({ description: "A grader's document id (G1, ...)" }),
  kind: z.enum(["PRIMARY", "ADJUDICATOR"]),
  position,
  status: z.enum(["PENDING", "IN_PROGRESS", "SUBMITTED", "CANCELLED"]),
  timeSpentMs: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  harmLeft: z.boolean(),
  harmLeftComment: text(MAX_COMMENT).nullable(),
  harmRight: z.boolean(),
  harmRightComment: text(MAX_COMMENT).nullable(),
  createdAt: iso,
  updatedAt: iso,
  startedAt: iso.nullable(),
  submittedAt: iso.nullable(),
  preferences: z.array(ArchivePreference).max(200),
});

const shownAnswer = z.strictObject({ model: ref, repetition: z.int().min(1).max(LIMITS.repetitions.max) });

/** One comparison with its graders' work and its escalation, as one element (few of each per comparison). */
export const ArchiveComparison = z.strictObject({
  item: ref,
  left: shownAnswer,
  right: shownAnswer,
  status: z.enum(["AWAITING_GRADES", "AGREED", "AWAITING_ADJUDICATION", "ADJUDICATED"]),
  createdAt: iso,
  updatedAt: iso,
  assignments: z.array(ArchiveComparisonAssignment).max(1000),
  escalation: z
    .strictObject({
      status: z.enum(["NEEDS_GRADER", "ASSIGNED", "RESOLVED", "CANCELLED"]),
      /** The axes that disagreed, each primary grader's choice by their document id. */
      axes: z.array(z.strictObject({ rubric: archiveKey, axis: archiveKey, choices: z.record(ref, preferenceChoice) })).max(200),
      adjudicator: ref.nullable(),
      createdAt: iso,
      updatedAt: iso,
      resolvedAt: iso.nullable(),
    })
    .nullable(),
});

export const ArchiveStudy = z.strictObject({
  name: z.string().trim().min(1).max(LIMITS.name).refine(storable, UNSTORABLE),
  slug: z.string().max(100).regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "slug must be lower-case letters, digits and dashes"),
  description: text(LIMITS.description),
  /** Archives written before graders had a title of their own have none: a neutral one. */
  graderTitle: text(LIMITS.graderTitle).default(""),
  /** Rubric documents; archives written before rubrics were data name the published ones by key (lib/exports/archive-rubrics.ts). */
  rubrics: z.array(z.union([z.enum(EARLIER_RUBRIC_KEYS), RubricDocumentSchema])).min(1).max(20),
  repetitions: z.int().min(LIMITS.repetitions.min).max(LIMITS.repetitions.max),
  gradersPerSet: z.int().min(LIMITS.gradersPerSet.min).max(LIMITS.gradersPerSet.max),
  thresholds: thresholdsInputSchema,
  /** The study's escalation rules over its documents'; absent: the documents' own. */
  escalationRules: escalationRulesInputSchema.default({}),
  showReferenceAnswer: z.boolean(),
  /** Archives written before graders were asked about contradictions: today's default. */
  askContradictions: z.boolean().default(true),
  /** The study's own triage rule; absent: the defaults. */
  triageRule: TriageRuleSchema.optional(),
  matchSpecialty: z.boolean(),
  safeLlmScoring: z.enum(["PER_ANSWER", "OVERALL"]),
  assignmentSeed: text(MAX_NAME).nullable(),
  /** How sets were dealt to graders; archives written before designs existed used today's default. */
  assignmentDesign: z.enum(ASSIGNMENT_DESIGNS).default("LOAD_BALANCED"),
  /** Gold, washout and calibration settings; absent: the defaults (none of them). */
  quality: ArchiveQualitySettings.optional(),
  status: z.enum(["DRAFT", "OPEN", "CLOSED"]),
  createdAt: iso,
  updatedAt: iso,
  openedAt: iso.nullable(),
  closedAt: iso.nullable(),
  ...ARCHIVE_PAIRWISE_STUDY,
});

/** The members of the document before its big sections, each with its schema (arrays: of one element). */
export const ARCHIVE_HEAD = {
  format: z.literal(ARCHIVE_FORMAT, { error: `format must be "${ARCHIVE_FORMAT}"` }),
  version: z.literal(ARCHIVE_VERSION, { error: `version must be ${ARCHIVE_VERSION}` }),
  exportedAt: iso,
  source: z.strictObject({ studyId: z.uuid(), slug: text(MAX_NAME) }),
  identities: z.boolean().meta({ description: "Whether grader names and emails are in the document" }),
  study: ArchiveStudy,
} as const;

export const StudyArchive = registry.register(
  "StudyArchive",
  z
    .strictObject({
      ...ARCHIVE_HEAD,
      specialties: z.array(specialty).max(ARCHIVE_LIMITS.specialties),
      graders: z.array(ArchiveGrader).max(ARCHIVE_LIMITS.graders),
      models: z.array(ArchiveModel).max(ARCHIVE_LIMITS.models),
      items: z.array(ArchiveItem),
      sets: z.array(ArchiveSet),
      assignments: z.array(ArchiveAssignment),
      escalations: z.array(ArchiveEscalation),
      screens: z.array(ArchiveScreen).max(10_000).optional().meta({ description: "The finished safety screen runs, oldest first (archives written before the screen have none)" }),
      screenHits: z.array(ArchiveScreenHit).optional().meta({ description: "Each answer x rule a screen's rules matched" }),
      screenVerdicts: z.array(ArchiveScreenVerdict).optional().meta({ description: "Each answer a screen's judge read: flagged, cleared (false), or could not screen (null)" }),
      qualitySets: z.array(ArchiveQualitySet).optional().meta({ description: "Calibration and gold sets with their expected scores (archives written before grader quality have none)" }),
      qualityTasks: z.array(ArchiveQualityTask).optional().meta({ description: "Each grader's calibration, gold and re-grade tasks with their grades" }),
      comparisons: z.array(ArchiveComparison).optional().meta({ description: "A pairwise study's comparisons, each with its graders' preferences and its escalation (archives of scoring studies have none)" }),
      audit: z.array(z.record(z.string(), z.unknown())).optional().meta({ description: "With audit=1: the audit trail, for the record (not re-imported)" }),
    })
    .meta({
      description:
        "A whole study (the `study` export), importable into another instance by POST /api/v1/study-archives. Items are keyed by item_id, models by name, graders by document ids (G1, G2, ...), so the document carries no database ids except source.studyId. The import reads it in one pass, so its members come in the export's order: format, version, exportedAt, source, identities, study, specialties, graders and models (in any order), then items, sets, assignments, escalations, screens, screenHits, screenVerdicts, qualitySets, qualityTasks, comparisons, audit.",
    }),
);
export type StudyArchive = z.output<typeof StudyArchive>;
export type ArchiveGrader = z.output<typeof ArchiveGrader>;
export type ArchiveAssignment = z.output<typeof ArchiveAssignment>;
export type ArchiveQualitySet = z.output<typeof ArchiveQualitySet>;
export type ArchiveQualityTask = z.output<typeof ArchiveQualityTask>;

/** `G1:<email or user id>`: the document's grader G1 is that existing grader account. */
const MAP_ENTRY = /^([^:]+):(.+)$/;

export const ArchiveImportQuery = z.strictObject(
  {
    map: z
      .array(z.string().regex(MAP_ENTRY, "map must be <grader id>:<email or user id>, e.g. G1:ana@example.org"))
      .max(ARCHIVE_LIMITS.graders)
      .optional()
      .meta({
        description:
          "Admins only, repeatable: G1:<email or user id> binds the document's grader G1 (and their grades) to that existing GRADER account instead of a new pseudonymous one; recorded in the audit log",
      }),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown parameter ${issue.keys.join(", ")}` : "invalid query") },
);
export type ArchiveImportQuery = z.output<typeof ArchiveImportQuery>;

export function parseMapEntry(entry: string): { grader: string; account: string } {
  const m = MAP_ENTRY.exec(entry)!;
  return { grader: m[1], account: m[2] };
}

export const ArchiveImported = registry.register("ArchiveImported", z.object({ id: z.uuid(), slug: z.string() }));

// ───────────────────────────────────── paths ─────────────────────────────────────

const IdParams = z.object({ id: z.uuid().meta({ description: "Study id" }) });

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/export",
  summary: "Export a dataset of the study as CSV or JSON (leads; streamed)",
  description: [
    "Datasets: `grades` (one row per stored score: `value` is what the grader gave, an ordinal number, a nominal level's value or a criterion's 1 met / 0 not met; `na` true for not applicable, with an empty value; `label` the level's label from the study's rubric documents, `Not applicable`, or Met / Not met; `criterion` the criterion of a criteria row; `score` the numeric part only, kept for earlier readers; an empty value with na false is a comment stored without a value; `contradiction` and `contradiction_note`: the submission's flag that the set's answers contradict each other), `score-long` (the long analysis format: domain,model,response_id, then one column per dimension, or exactly the columns a rubric's document names for its published analysis code; response_id = <item_id>-<model>; a study whose questions have reference answers adds `bleu`, `rouge1`, `rougeL` last, the means over the set's answers, then `embedding_similarity` when an embedding run computed some: the mean cosine, -1 to 1, not BERTScore; a study with contradiction flags adds `contradiction` after them, how many graders flagged the set),",
    "`sets` (final scores, totals and escalation per response set; `bleu`, `rouge1`, `rougeL`: the mean over the set's answers of each answer's reference-based metric, 0-1, empty without a reference answer; `embedding_similarity`, when an embedding run computed some, the mean over the set's answers of each answer's cosine with the reference in an embeddings model's space, -1 to 1, not BERTScore; and `answer_metrics` / `answers` each answer's), `summary` (per model and specialty; CSV: one table with a `section` column),",
    "`audit` (the study's audit trail), `study` (the whole study as one JSON document that POST /api/v1/study-archives imports).",
    "Computed figures (means, totals, percents, summary statistics, judges' expected scores) are written to 4 decimals; stored values keep full precision.",
    "CSV: RFC 4180 quoting, UTF-8 (bom=1 adds a byte-order mark), times ISO 8601 UTC; a text cell whose first non-space character is = + - @ tab or CR, their fullwidth forms (＝ ＋ － ＠), or a double quote followed by one of them, is prefixed with an apostrophe (numbers never are: -1 stays -1).",
    "Graders appear as per-study pseudonyms unless identities=1. The file name is <study-slug>_<dataset>_<yyyy-mm-dd>.<csv|json>.",
  ].join(" "),
  tags: ["Exports"],
  request: { params: IdParams, query: ExportQuery },
  responses: {
    200: {
      description: "The file, streamed (Content-Disposition: attachment)",
      content: { "text/csv": { schema: z.string() }, "application/json": { schema: z.unknown() } },
    },
    ...errorResponses(401, 403, 404, 422),
  },
});

registry.registerPath({
  method: "post",
  path: "/api/v1/study-archives",
  summary: "Import a study document (the `study` export) as a new study owned by the caller",
  description:
    "Everything is created in one transaction with new ids; the document is read as a stream (body limit ARCHIVE_MAX_BYTES, 256 MB by default) and any problem in it (every one is listed, 422) writes nothing. Each grader of the document becomes a new, deactivated, pseudonymous grader account without a password: names and emails in the document are never matched to existing accounts. Only an admin may bind graders to existing grader accounts, with `map`; each binding is listed in the import's audit event.",
  tags: ["Exports"],
  request: { query: ArchiveImportQuery, body: { content: { "application/json": { schema: StudyArchive } } } },
  responses: {
    201: { description: "Imported", content: { "application/json": { schema: ArchiveImported } } },
    ...errorResponses(400, 401, 403, 422),
    ...uploadResponses({ perStudy: false, bodyLimit: "ARCHIVE_MAX_BYTES" }),
  },
});
