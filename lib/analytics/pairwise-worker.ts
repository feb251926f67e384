import { serveJob } from "@/lib/workers/serve";
import { analysePreferences, type PairwiseAnalysis, type PairwiseOptions } from "@/lib/stats/pairwise";
import { fromColumns, type PreferenceColumns } from "./pairwise-columns";

/** The pairwise statistics' worker thread: every axis's fits and question bootstrap, off the request's event loop. */
serveJob<{ columns: PreferenceColumns; options: PairwiseOptions }, PairwiseAnalysis>(async ({ columns, options }) => analysePreferences(fromColumns(columns), options));
