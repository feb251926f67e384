import { serveJob } from "@/lib/workers/serve";
import { runScreenJob, type ScreenJob, type ScreenJobResult } from "./job";

/** The safety screen's worker thread (lib/workers/run.ts). */
serveJob<ScreenJob, ScreenJobResult>(runScreenJob);
