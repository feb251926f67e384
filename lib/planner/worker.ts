import { serveJob } from "@/lib/workers/serve";
import type { DifferenceTarget, PlanResult } from "@/lib/stats/planner";
import { runPlannerJob } from "./job";

/** The planner's power simulation, off the request's event loop (lib/workers/run.ts). */
serveJob<DifferenceTarget, PlanResult>(runPlannerJob);
