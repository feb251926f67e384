import { LEAD_ROLES } from "@/lib/auth/roles";
import { SavedMappingBody } from "@/lib/grade-import/contract";
import { listMappings, saveMapping } from "@/lib/grade-import/saved";
import { apiRoute, readJson } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

/** The grade-import mappings saved for a study the caller leads. */
export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  return { mappings: await listMappings(study.id) };
});

export const PUT = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  return saveMapping(study.id, await readJson(req, SavedMappingBody));
});
