import type { MessagePort } from "node:worker_threads";
import { bodyChannel } from "@/lib/workers/body-channel";
import { runInWorker } from "@/lib/workers/run";
import type { ImportOptions, ImportResult } from "./service";

export type AnswerImportJob = Omit<ImportOptions, "onPhase" | "body"> & { body: MessagePort | null };

/**
 * The answer import of a request, run in a worker thread (./worker.ts) that
 * reads the request's body as it arrives: the file is parsed, checked and
 * written there, never on the event loop that answers other users.
 */
export function importIntoStudyOffThread(o: Omit<AnswerImportJob, "body"> & { body: ReadableStream<Uint8Array> | null }): Promise<ImportResult> {
  const body = o.body ? bodyChannel(o.body) : null;
  const job: AnswerImportJob = { ...o, study: { id: o.study.id, status: o.study.status, repetitions: o.study.repetitions }, body };
  return runInWorker<ImportResult>("answer-import", job, body ? [body] : []);
}
