import { LEAD_ROLES } from "@/lib/auth/roles";
import { ScreeningResult, ScreenRequest } from "@/lib/screening/contract";
import { getScreening, runScreen } from "@/lib/screening/service";
import { apiRoute, readJson } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

// The rules run in a worker thread (lib/workers).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Runs the safety screen over the study's answers (lib/screening). */
export const POST = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params, requestId, log }) => {
  const study = await requireStudyForLead(user, params.id);
  const body = await readJson(req, ScreenRequest);
  const result = await runScreen(study.id, body, { id: user.id, name: user.name, requestId });
  log.info({ studyId: study.id, dryRun: body.dryRun, rules: body.rules.length, screened: result.answers.length }, "safety screen");
  return ScreeningResult.parse(result);
});

/** The study's latest screen: the dataset of screened-out answers. */
export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  return ScreeningResult.parse(await getScreening(study.id));
});
