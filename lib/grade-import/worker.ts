import { serveJob } from "@/lib/workers/serve";
import { runGradeImportJob, type GradeImportJob } from "./job";

/** The grade import's worker thread (lib/workers/run.ts). */
serveJob<GradeImportJob, Awaited<ReturnType<typeof runGradeImportJob>>>(runGradeImportJob);
