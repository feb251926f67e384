import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";
import { DIMENSION_KEYS, RUBRIC_KEYS } from "@/lib/grading/contract-schemas";
import { MAX_NAME, MAX_TEXT } from "@/lib/import/validate";
import { LIMITS } from "@/lib/studies/settings";
import { multilineText, refuseBadTextIn } from "@/lib/validation/text";

/**
 * The exports contract: GET /api/v1/studies/{id}/export (every dataset, CSV or
 * JSON, streamed) and POST /api/v1/study-archives (import a `study` document
 * as a new study). The route handlers validate with these very schemas.
 */

export const DATASETS = ["grades", "score-long", "sets", "summary", "audit", "study"] as const;
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

const iso = z.iso.datetime({ message: "must be an ISO 8601 time in UTC, e.g. 2026-01-31T12:00:00.000Z" });
// Text of an archive is what an export wrote: no trimming, only the rule every
// text input obeys and the CSV import's lengths (an over-long name would not fit
// the database's indexes: a failed write, not an answer).
const text = multilineText().max(MAX_TEXT);
const name = multilineText().max(MAX_NAME);
const ref = name.min(1);
const specialty = name.refine((s) => s.trim() !== "", { error: "a specialty cannot be blank" });

const ArchiveGrade = z.strictObject({
  rubric: z.enum(RUBRIC_KEYS),
  dimension: z.enum(DIMENSION_KEYS),
  repetition: z.int().min(0).meta({ description: "1..N, or 0 for a dimension graded once for the whole set" }),
  score: z.int(),
  comment: text.nullable(),
  createdAt: iso,
  updatedAt: iso,
});

const ArchiveAssignment = z.strictObject({
  item: ref.meta({ description: "The item's id (item_id)" }),
  model: ref.meta({ description: "The model's name" }),
  grader: ref.meta({ description: "A grader id of this document (graders[].id)" }),
  kind: z.enum(["PRIMARY", "ADJUDICATOR"]),
  position: z.int().min(0),
  status: z.enum(["PENDING", "IN_PROGRESS", "SUBMITTED", "CANCELLED"]),
  timeSpentMs: z.int().min(0),
  harmFlag: z.boolean(),
  harmComment: text.nullable(),
  createdAt: iso,
  updatedAt: iso,
  startedAt: iso.nullable(),
  submittedAt: iso.nullable(),
  grades: z.array(ArchiveGrade),
});

const ArchiveGrader = z.strictObject({
  id: ref.meta({ description: "Stable within the document: G1, G2, ..." }),
  pseudonym: name.meta({ description: "The grader's pseudonym in the exported study (as in the other exports); informative only" }),
  name: name.nullable().meta({ description: "Only when exported with identities=1" }),
  email: multilineText().max(320).nullable().meta({ description: "Only when exported with identities=1; the import maps graders to accounts by it" }),
  specialties: z.array(specialty),
  membership: z.strictObject({ active: z.boolean(), addedAt: iso }).nullable(),
});

const ArchiveModel = z.strictObject({
  name: ref,
  version: name,
  temperature: z.number().nullable(),
  topP: z.number().nullable(),
  settings: z.unknown().nullable().superRefine(refuseBadTextIn),
  createdAt: iso,
});

const ArchiveItem = z.strictObject({
  id: ref.meta({ description: "item_id: the lead's own id of the question" }),
  specialty,
  question: text,
  referenceAnswer: text,
  createdAt: iso,
  updatedAt: iso,
});

const ArchiveSet = z.strictObject({
  item: ref,
  model: ref,
  status: z.enum(["AWAITING_GRADES", "AGREED", "AWAITING_ADJUDICATION", "ADJUDICATED"]),
  createdAt: iso,
  updatedAt: iso,
  answers: z.array(z.strictObject({ repetition: z.int().min(1), text, createdAt: iso, updatedAt: iso })),
});

const ArchiveEscalation = z.strictObject({
  item: ref,
  model: ref,
  status: z.enum(["NEEDS_GRADER", "ASSIGNED", "RESOLVED", "CANCELLED"]),
  dimensions: z
    .array(z.looseObject({ values: z.record(z.string(), z.number()).optional() }))
    .superRefine(refuseBadTextIn)
    .meta({ description: "What disagreed; each grader's value keyed by the document's grader id" }),
  adjudicator: ref.nullable().meta({ description: "The adjudicating grader (graders[].id): their ADJUDICATOR assignment on the set" }),
  createdAt: iso,
  updatedAt: iso,
  resolvedAt: iso.nullable(),
});

const ArchiveStudy = z.strictObject({
  name: multilineText().trim().min(1).max(LIMITS.name),
  slug: z.string().max(60).regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "slug must be lower-case letters, digits and dashes"),
  description: multilineText().max(LIMITS.description),
  rubrics: z.array(z.enum(RUBRIC_KEYS)).min(1).max(2),
  repetitions: z.int().min(LIMITS.repetitions.min).max(LIMITS.repetitions.max),
  gradersPerSet: z.int().min(LIMITS.gradersPerSet.min).max(LIMITS.gradersPerSet.max),
  thresholds: z.record(multilineText(), z.record(multilineText(), z.number())),
  showReferenceAnswer: z.boolean(),
  matchSpecialty: z.boolean(),
  safeLlmScoring: z.enum(["PER_ANSWER", "OVERALL"]),
  assignmentSeed: name.nullable(),
  status: z.enum(["DRAFT", "OPEN", "CLOSED"]),
  createdAt: iso,
  updatedAt: iso,
  openedAt: iso.nullable(),
  closedAt: iso.nullable(),
});

export const StudyArchive = registry.register(
  "StudyArchive",
  z
    .strictObject({
      format: z.literal(ARCHIVE_FORMAT),
      version: z.literal(ARCHIVE_VERSION),
      exportedAt: iso,
      source: z.strictObject({ studyId: z.uuid(), slug: name }),
      identities: z.boolean().meta({ description: "Whether grader names and emails are in the document" }),
      study: ArchiveStudy,
      specialties: z.array(specialty),
      graders: z.array(ArchiveGrader),
      models: z.array(ArchiveModel),
      items: z.array(ArchiveItem),
      sets: z.array(ArchiveSet),
      assignments: z.array(ArchiveAssignment),
      escalations: z.array(ArchiveEscalation),
      audit: z.array(z.record(z.string(), z.unknown())).optional().meta({ description: "With audit=1: the audit trail, for the record (not re-imported)" }),
    })
    .meta({
      description:
        "A whole study (the `study` export), importable into another instance by POST /api/v1/study-archives. Items are keyed by item_id, models by name, graders by document ids (G1, G2, ...), so the document carries no database ids except source.studyId.",
    }),
);
export type StudyArchive = z.output<typeof StudyArchive>;
export type ArchiveGrader = z.output<typeof ArchiveGrader>;
export type ArchiveAssignment = z.output<typeof ArchiveAssignment>;

export const ArchiveImported = registry.register("ArchiveImported", z.object({ id: z.uuid(), slug: z.string() }));

// ───────────────────────────────────── paths ─────────────────────────────────────

const IdParams = z.object({ id: z.uuid().meta({ description: "Study id" }) });

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/export",
  summary: "Export a dataset of the study as CSV or JSON (leads; streamed)",
  description: [
    "Datasets: `grades` (one row per stored score), `score-long` (the S.C.O.R.E. paper's analysis input: domain,model,response_id,Safety,Consensus,Objectivity,Reproducibility,Explainability; response_id = <item_id>-<model>),",
    "`sets` (final scores, totals and escalation per response set), `summary` (per model and specialty; CSV: one table with a `section` column),",
    "`audit` (the study's audit trail), `study` (the whole study as one JSON document that POST /api/v1/study-archives imports).",
    "CSV: RFC 4180 quoting, also of any cell holding a semicolon or a tab (grades: every text cell is quoted), UTF-8 (bom=1 adds a byte-order mark), times ISO 8601 UTC; a text cell starting with = + - @ tab or CR is prefixed with an apostrophe.",
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
    "Everything is created in one transaction with new ids. Graders are matched to accounts by email when the document has identities; otherwise (and for unknown emails) deactivated placeholder grader accounts are created.",
  tags: ["Exports"],
  request: { body: { content: { "application/json": { schema: StudyArchive } } } },
  responses: {
    201: { description: "Imported", content: { "application/json": { schema: ArchiveImported } } },
    ...errorResponses(400, 401, 403, 413, 422),
  },
});
