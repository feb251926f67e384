import { serveJob } from "@/lib/workers/serve";
import { analysePreferences, type PairwiseAnalysis, type PairwiseOptions, type PreferenceObservation } from "@/lib/stats/pairwise";

/** The pairwise statistics' worker thread: the fits and their question bootstrap, off the request's event loop. */
serveJob<{ rows: PreferenceObservation[]; options: PairwiseOptions }, PairwiseAnalysis>(async ({ rows, options }) => analysePreferences(rows, options));
