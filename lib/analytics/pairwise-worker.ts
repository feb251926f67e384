import { serveJob } from "@/lib/workers/serve";
import { analyseAxis, type AxisAnalysis, type PairwiseOptions, type PreferenceObservation } from "@/lib/stats/pairwise";

/** The pairwise statistics' worker thread: one axis's fits and question bootstrap, off the request's event loop. */
serveJob<{ rows: PreferenceObservation[]; axis: string | null; models: string[]; options: PairwiseOptions }, AxisAnalysis>(async ({ rows, axis, models, options }) => analyseAxis(axis, rows, models, options));
