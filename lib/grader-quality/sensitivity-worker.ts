import { serveJob } from "@/lib/workers/serve";
import type { Sensitivity } from "./contract";
import { graderSensitivity } from "./sensitivity";

/** The sensitivity analysis's worker thread: one dashboard per grader, off the request's event loop. */
serveJob<{ studyId: string }, Sensitivity | null>(({ studyId }) => graderSensitivity(studyId));
