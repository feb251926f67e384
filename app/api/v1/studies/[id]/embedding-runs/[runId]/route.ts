import { LEAD_ROLES } from "@/lib/auth/roles";
import { embeddingRunOf } from "@/lib/embeddings/runs";
import { apiRoute, json } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

/** One embedding similarity run's status, if it is this study's. */
export const GET = apiRoute<{ id: string; runId: string }>(LEAD_ROLES, async ({ user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  return json(await embeddingRunOf(study.id, params.runId), { headers: { "cache-control": "no-store" } });
});
