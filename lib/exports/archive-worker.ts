import { bodyFromChannel } from "@/lib/workers/body-channel";
import { serveJob } from "@/lib/workers/serve";
import type { ArchiveImportJob } from "./archive-in-worker";
import { importArchive, type ImportedArchive } from "./archive-import";

/** The study archive import's worker thread (lib/workers/run.ts). */
serveJob<ArchiveImportJob, ImportedArchive>((job) => importArchive({ ...job, body: job.body ? bodyFromChannel(job.body) : null }));
