import type { MessagePort } from "node:worker_threads";
import { coalesce, decodeUtf8, limitBytes } from "@/lib/import/source";
import { bodyFromChannel } from "@/lib/workers/body-channel";
import { ApiError } from "@/lib/errors/api-error";
import { guessLongMapping, type GradeImportMapping } from "./mapping";
import { mappingProblem } from "./mapping-problem";
import { importGrades, toApiError, type GradeImportResult } from "./service";
import { isPreferenceHeader } from "./preferences";
import { csvTables, fileTables, type GradeFileKind, type GradeTable } from "./tables";

/**
 * What the request hands the import's worker thread (./worker.ts): the file
 * as a temporary file (a form upload) or as the request's own body (a CSV
 * body, read as it arrives through lib/workers/body-channel.ts), and the mapping where the request named one.
 */
export interface GradeImportJob {
  studyId: string;
  actorId: string;
  requestId: string | null;
  dryRun: boolean;
  mapping: GradeImportMapping | null;
  source: { kind: "file"; path: string; fileKind: GradeFileKind } | { kind: "csv"; body: MessagePort; maxBytes: number; contentLength: number | null };
}

async function* prepend(first: GradeTable, rest: AsyncIterator<GradeTable>): AsyncGenerator<GradeTable> {
  yield first;
  for (;;) {
    const n = await rest.next();
    if (n.done) return;
    yield n.value;
  }
}

export async function runGradeImportJob(job: GradeImportJob): Promise<GradeImportResult> {
  const base = { study: { id: job.studyId }, actorId: job.actorId, requestId: job.requestId, dryRun: job.dryRun };
  const s = job.source;
  if (s.kind === "file") {
    if (!job.mapping) throw mappingProblem("send the mapping");
    return importGrades({ ...base, mapping: job.mapping, tables: fileTables(s.path, s.fileKind) });
  }
  const chunks = limitBytes(bodyFromChannel(s.body), s.maxBytes, s.contentLength);
  const tables = csvTables(decodeUtf8(coalesce(chunks)))[Symbol.asyncIterator]();
  // The header is read here, before importGrades: a limit met in the file's first piece is a 4xx too.
  const first = await tables.next().catch((e: unknown) => {
    throw toApiError(e);
  });
  if (first.done) throw new ApiError(422, "the file is empty", { errors: [{ sheet: null, row: 0, column: null, message: "the file is empty" }], total: 1 });
  // The pairwise preference format, found by its header (no mapping: its columns are fixed).
  if (!job.mapping && isPreferenceHeader(first.value.header)) return importGrades({ ...base, mapping: null, preferences: true, tables: prepend(first.value, tables) });
  const mapping = job.mapping ?? guessLongMapping(first.value.header);
  if (!mapping) {
    throw mappingProblem(
      `the header (${first.value.header.slice(0, 12).join(", ")}) does not name the long format's columns: item_id, model, rater, dimension, score (repetition, comment optional); or send a mapping`,
      null,
    );
  }
  return importGrades({ ...base, mapping, tables: prepend(first.value, tables) });
}
