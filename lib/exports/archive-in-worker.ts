import type { Transferable } from "node:worker_threads";
import { transferable } from "@/lib/import/source";
import { runInWorker } from "@/lib/workers/run";
import type { ArchiveImportOptions, ImportedArchive } from "./archive-import";

export type ArchiveImportJob = Omit<ArchiveImportOptions, "body"> & { body: ReadableStream<Uint8Array> | null };

/** A study archive's import, run in a worker thread (./archive-worker.ts) that reads the request's body as it arrives. */
export function importArchiveOffThread(o: ArchiveImportJob): Promise<ImportedArchive> {
  const body = o.body ? transferable(o.body) : null;
  return runInWorker<ImportedArchive>("archive-import", { ...o, body }, body ? [body as unknown as Transferable] : []);
}
