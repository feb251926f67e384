import { LEAD_ROLES } from "@/lib/auth/roles";
import { HybridBody } from "@/lib/judges/contract";
import { setHybridMode } from "@/lib/judges/hybrid";
import { apiRoute, readJson } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

/** Hybrid mode of a study the caller leads (lib/judges/hybrid.ts). */
export const PUT = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params, requestId, log }) => {
  const study = await requireStudyForLead(user, params.id);
  const input = await readJson(req, HybridBody);
  const result = await setHybridMode({ id: user.id, requestId }, study.id, input);
  log.info({ studyId: study.id, ...result }, "hybrid mode");
  return result;
});
