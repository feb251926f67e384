import type { MessagePort } from "node:worker_threads";
import { bodyChannel } from "@/lib/workers/body-channel";
import { runInWorker } from "@/lib/workers/run";
import type { ArchiveImportOptions, ImportedArchive } from "./archive-import";

export type ArchiveImportJob = Omit<ArchiveImportOptions, "body"> & { body: MessagePort | null };

/** A study archive's import, run in a worker thread (./archive-worker.ts) that reads the request's body as it arrives. */
export function importArchiveOffThread(o: Omit<ArchiveImportJob, "body"> & { body: ReadableStream<Uint8Array> | null }): Promise<ImportedArchive> {
  const body = o.body ? bodyChannel(o.body) : null;
  return runInWorker<ImportedArchive>("archive-import", { ...o, body }, body ? [body] : []);
}
