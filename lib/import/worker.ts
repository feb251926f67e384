import { bodyFromChannel } from "@/lib/workers/body-channel";
import { serveJob } from "@/lib/workers/serve";
import type { AnswerImportJob } from "./in-worker";
import { importIntoStudy, type ImportResult } from "./service";

/** The answer import's worker thread (lib/workers/run.ts). */
serveJob<AnswerImportJob, ImportResult>((job) => importIntoStudy({ ...job, body: job.body ? bodyFromChannel(job.body) : null }));
