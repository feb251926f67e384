import { ApiError } from "@/lib/errors/api-error";
import { alphaSets, iccSets, kappaSets, pairwiseComparisons, type PlanResult } from "@/lib/stats/planner";
import { fleissKappaSets } from "@/lib/stats/planner-kappa";
import { withImportSlot } from "@/lib/uploads/slots";
import { runInWorker } from "@/lib/workers/run";
import type { CurrentUser } from "@/lib/server/current-user";
import { getDb } from "@/lib/db/client";
import { requireStudyForLead } from "@/lib/studies/access";
import { studyVisibilityFilter } from "@/lib/studies/queries";
import type { PlannerAnswer, PlannerRequest } from "./contract";
import { dStudyPlan } from "./d-study";

/**
 * The planner (issue #36): closed forms answer at once; the power simulation of the
 * `difference` target takes seconds of CPU, so it runs in a worker thread and holds one of the
 * server's bounded slots (a 429 with Retry-After beyond them), like an import.
 */
export async function plan(request: PlannerRequest, user: Pick<CurrentUser, "id" | "role">): Promise<PlannerAnswer> {
  let result: PlanResult;
  switch (request.target) {
    case "dstudy":
      // The pilot must be a study the lead may read, as any study route requires.
      return dStudyPlan(request, await requireStudyForLead(user, request.studyId));
    case "icc":
      result = iccSets(request.expected, request.graders, request.ciWidth, request.level);
      break;
    case "alpha":
      result = alphaSets(request.expected, request.items, request.ciWidth, request.level);
      break;
    case "kappa": {
      if ((request.prevalence === undefined) === (request.proportions === undefined)) {
        const message = request.prevalence === undefined ? "give prevalence (a yes/no item) or proportions (one share per category)" : "give prevalence or proportions, not both";
        throw new ApiError(422, message, { errors: [{ path: request.prevalence === undefined ? "prevalence" : "proportions", message }], total: 1 });
      }
      const shares = request.proportions ?? [request.prevalence!, 1 - request.prevalence!];
      const graders = request.graders ?? 2;
      // Two graders on two categories: Bloch & Kraemer's published closed form (the general variance equals it there).
      const yesNo = graders === 2 && shares.length === 2 && Math.abs(shares[0] + shares[1] - 1) <= 1e-6;
      result = yesNo ? kappaSets(request.expected, shares[0], request.ciWidth, request.level) : fleissKappaSets(request.expected, shares, graders, request.ciWidth, request.level);
      break;
    }
    case "pairwise":
      result = pairwiseComparisons(request.winProbability, { power: request.power, alpha: request.alpha, tieShare: request.tieShare });
      break;
    case "difference": {
      const byDelta = request.cliffsDelta !== undefined;
      const byMean = request.meanDifference !== undefined || request.sd !== undefined;
      if (byDelta === byMean || (byMean && (request.meanDifference === undefined || request.sd === undefined))) {
        const message = byDelta && byMean ? "give cliffsDelta or meanDifference with sd, not both" : "give cliffsDelta, or meanDifference with sd";
        throw new ApiError(422, message, { errors: [{ path: byDelta ? "meanDifference" : "cliffsDelta", message }], total: 1 });
      }
      const { target: _target, ...rest } = request;
      void _target;
      result = await withImportSlot(null, () => runInWorker<PlanResult>("planner", rest));
      break;
    }
  }
  if ("problem" in result) {
    throw new ApiError(422, result.problem, { errors: [{ path: result.path, message: result.problem }], total: 1 });
  }
  return { target: request.target, ...result };
}

/** The lead's studies a D-study can start from, newest first. */
export async function pilotStudies(user: Pick<CurrentUser, "id" | "role">): Promise<{ id: string; name: string }[]> {
  return getDb().study.findMany({ where: studyVisibilityFilter(user), select: { id: true, name: true }, orderBy: { createdAt: "desc" }, take: 200 });
}
