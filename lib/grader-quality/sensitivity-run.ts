import { ApiError } from "@/lib/errors/api-error";
import { withImportSlot } from "@/lib/uploads/slots";
import { runInWorker } from "@/lib/workers/run";
import type { Sensitivity } from "./contract";

/** Heap of the analysis's thread: it holds the study's grades once, as the dashboard does. */
export const SENSITIVITY_HEAP_MB = 1024;

/**
 * The sensitivity analysis for a request: it recomputes the dashboard once per grader (minutes on
 * a large study), so it runs in a worker thread, within the server's bounded slots (a 429 with
 * Retry-After beyond them), and never on the event loop other users' requests need.
 */
export async function graderSensitivityOffThread(studyId: string): Promise<Sensitivity | null> {
  return withImportSlot(null, () =>
    runInWorker<Sensitivity | null>("grader-sensitivity", { studyId }, [], undefined, {
      heapMb: SENSITIVITY_HEAP_MB,
      outOfMemory: (mb) => new ApiError(413, `the sensitivity analysis of this study needs more than ${mb} MB; read the figures without each grader from the exports instead`),
    }),
  );
}
