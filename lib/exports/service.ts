import { ApiError } from "@/lib/errors/api-error";
import { archiveChunks } from "./archive";
import { auditChunks } from "./audit";
import type { Dataset, Format } from "./contract";
import { gradesChunks } from "./grades";
import { graderQualityChunks } from "./grader-quality";
import { qualityGradesChunks } from "./quality-grades";
import { judgeScoresChunks } from "./judge-scores";
import { loadPeople } from "./people";
import { screeningChunks } from "./screening";
import { comparisonsChunks } from "./comparisons";
import { resultsStudy, scoreLongChunks, setsChunks, summaryChunks } from "./results";
import { ExportSession } from "./session";
import { triageChunks } from "./triage";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { openWebStream, type ChunkSource, type WebStreamOptions } from "./web-stream";

/**
 * One entry point for every export, used by the route handler, the tests and
 * the benchmark: which dataset, which format, and a stream of its bytes.
 */
export interface ExportStudy {
  id: string;
  slug: string;
  /** The study's rubric documents as stored (Study.rubrics). */
  rubrics: unknown;
}

export interface ExportOptions {
  dataset: Dataset;
  format: Format;
  identities?: boolean;
  /** study dataset only: include the audit trail. */
  audit?: boolean;
}

export const JSON_ONLY: readonly Dataset[] = ["study"];

export function defaultFormat(dataset: Dataset): Format {
  return JSON_ONLY.includes(dataset) ? "json" : "csv";
}

export function checkExportOptions(o: ExportOptions): void {
  if (o.format === "csv" && JSON_ONLY.includes(o.dataset)) throw new ApiError(422, `the ${o.dataset} dataset is a JSON document: use format=json`);
}

/** `<study-slug>_<dataset>_<yyyy-mm-dd>.<csv|json>`, the date in UTC. */
export function exportFileName(slug: string, dataset: Dataset, format: Format, now = new Date()): string {
  return `${slug}_${dataset}_${now.toISOString().slice(0, 10)}.${format}`;
}

export function contentType(format: Format): string {
  return format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8";
}

/** Runs `body` on an export connection (one snapshot), giving it back whatever happens. */
function withSession(body: (session: ExportSession) => AsyncIterable<Uint8Array | string>): ChunkSource {
  return async function* (signal) {
    const session = await ExportSession.open(signal);
    let ok = false;
    try {
      yield* body(session);
      ok = true;
    } finally {
      await session.close(ok);
    }
  };
}

export function exportSource(study: ExportStudy, o: ExportOptions): ChunkSource {
  checkExportOptions(o);
  const identities = Boolean(o.identities);
  const format = o.format;
  switch (o.dataset) {
    case "grades":
      return withSession(async function* (session) {
        const people = await loadPeople(session.rawQuery, study.id);
        yield* gradesChunks(session, study.id, people, identities, format, storedRubrics(study.rubrics));
      });
    case "audit":
      return withSession(async function* (session) {
        const people = await loadPeople(session.rawQuery, study.id);
        yield* auditChunks(session, study.id, people, identities, format);
      });
    case "study":
      return withSession((session) => archiveChunks(session, study.id, { identities, audit: Boolean(o.audit) }));
    case "score-long":
      return withSession((session) => scoreLongChunks(session, resultsStudy(study), format));
    case "sets":
      return withSession((session) => setsChunks(session, resultsStudy(study), identities, format));
    case "summary":
      return withSession((session) => summaryChunks(session, resultsStudy(study), format));
    case "triage":
      return () => triageChunks(study.id, format);
    case "judge-scores":
      return withSession((session) => judgeScoresChunks(session, study.id, format, storedRubrics(study.rubrics)));
    case "screening":
      return withSession((session) => screeningChunks(session, study.id, format));
    case "grader-quality":
      return withSession(async function* (session) {
        const people = await loadPeople(session.rawQuery, study.id);
        yield* graderQualityChunks(session, study.id, people, identities, format);
      });
    case "quality-grades":
      return withSession(async function* (session) {
        const people = await loadPeople(session.rawQuery, study.id);
        yield* qualityGradesChunks(session, study.id, people, identities, format);
      });
    case "comparisons":
      return withSession(async function* (session) {
        const people = await loadPeople(session.rawQuery, study.id);
        yield* comparisonsChunks(session, study.id, people, identities, format);
      });
  }
}

/** The export as a web stream (its first chunk already read: a failure to start throws here). */
export function exportStream(study: ExportStudy, o: ExportOptions, stream: WebStreamOptions = {}): Promise<ReadableStream<Uint8Array>> {
  return openWebStream(exportSource(study, o), { ...stream, bom: Boolean(stream.bom) && o.format === "csv" });
}
