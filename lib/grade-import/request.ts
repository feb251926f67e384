import { getDb } from "@/lib/db/client";
import { chunksOf, limitBytes, maxImportBytes, tooLarge } from "@/lib/import/source";
import { bodyChannel } from "@/lib/workers/body-channel";
import { ApiError } from "@/lib/errors/api-error";
import { textProblem } from "@/lib/validation/text";
import { GradeImportMappingSchema, type GradeImportMapping } from "./mapping";
import { mappingProblem } from "./mapping-problem";
import type { GradeImportJob } from "./job";
import { runInWorker } from "@/lib/workers/run";
import type { GradeImportResult } from "./service";
import { sniffKind } from "./tables";
import { readUpload } from "./upload";
import { withImportSlot } from "@/lib/uploads/slots";

/** The request side of POST /grade-imports: which body, which mapping, then the import. */

export interface GradeImportRequest {
  studyId: string;
  actorId: string;
  requestId: string | null;
  contentType: string | null;
  contentLength: number | null;
  body: ReadableStream<Uint8Array> | null;
  dryRun: boolean;
  /** A mapping saved for the study, by name. */
  mappingName?: string;
}

export function parseMapping(input: unknown): GradeImportMapping {
  const parsed = GradeImportMappingSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((i) => ({ sheet: null, row: 0, column: `mapping.${i.path.join(".")}`, message: i.message }));
  throw new ApiError(422, "the mapping is not right", { errors, total: errors.length });
}

async function savedMapping(studyId: string, name: string): Promise<GradeImportMapping> {
  const row = await getDb().gradeImportMapping.findUnique({ where: { studyId_name: { studyId, name } } });
  if (!row) throw mappingProblem(`no mapping named "${name}" is saved for this study`);
  return parseMapping(row.mapping);
}

function mappingFromField(text: string | undefined): unknown {
  if (text === undefined || text.trim() === "") return undefined;
  if (textProblem(text, "multiline")) throw mappingProblem("the mapping field holds control characters");
  try {
    return JSON.parse(text);
  } catch {
    throw mappingProblem("the mapping field is not valid JSON");
  }
}

export async function importGradesFromRequest(r: GradeImportRequest): Promise<GradeImportResult> {
  return withImportSlot(r.studyId, () => importFromBody(r));
}

async function importFromBody(r: GradeImportRequest): Promise<GradeImportResult> {
  const type = (r.contentType ?? "").split(";")[0].trim().toLowerCase();
  const maxBytes = maxImportBytes();
  if (r.contentLength != null && r.contentLength > maxBytes) throw tooLarge(maxBytes);
  if (!r.body) throw new ApiError(400, "no body: send a file");
  const base = { studyId: r.studyId, actorId: r.actorId, requestId: r.requestId, dryRun: r.dryRun };

  if (type === "multipart/form-data") {
    // The form is written to a temporary file here (a copy, chunk by chunk); the worker reads it.
    const upload = await readUpload(limitBytes(chunksOf(r.body), maxBytes), r.contentType ?? "", maxBytes);
    try {
      const field = mappingFromField(upload.fields.mapping);
      const mapping = field !== undefined ? parseMapping(field) : r.mappingName ? await savedMapping(r.studyId, r.mappingName) : null;
      if (!mapping) throw mappingProblem('send the mapping as the form field "mapping" (JSON) or name a saved one with ?mapping=');
      if (upload.bytes === 0) throw new ApiError(422, "the file is empty", { errors: [{ sheet: null, row: 0, column: null, message: "the file is empty" }], total: 1 });
      const job: GradeImportJob = { ...base, mapping, source: { kind: "file", path: upload.path, fileKind: await sniffKind(upload.path) } };
      return await runInWorker<GradeImportResult>("grade-import", job);
    } finally {
      await upload.dispose();
    }
  }
  if (type === "text/csv" || type === "application/csv" || type === "text/plain") {
    const charset = /charset="?([^";]+)/i.exec(r.contentType ?? "")?.[1]?.toLowerCase();
    if (charset && charset !== "utf-8" && charset !== "utf8") throw new ApiError(415, `the file must be UTF-8, not ${charset}`);
    const mapping = r.mappingName ? await savedMapping(r.studyId, r.mappingName) : null;
    // The body itself moves to the worker, which reads it as it arrives.
    const body = bodyChannel(r.body);
    const job: GradeImportJob = { ...base, mapping, source: { kind: "csv", body, maxBytes, contentLength: r.contentLength } };
    return runInWorker<GradeImportResult>("grade-import", job, [body]);
  }
  throw new ApiError(415, type ? `unsupported content type ${type}: send multipart/form-data (file + mapping) or text/csv` : "missing Content-Type: send multipart/form-data or text/csv");
}
