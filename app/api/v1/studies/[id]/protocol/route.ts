import { LEAD_ROLES } from "@/lib/auth/roles";
import { ApiError } from "@/lib/errors/api-error";
import { FreezeProtocolBody } from "@/lib/protocol/contract";
import { freezeProtocol, protocolCanonical, protocolState } from "@/lib/protocol/service";
import { apiRoute, readJson } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

/** The frozen protocol (lib/protocol): its state, or with download=1 the canonical JSON the hash is of. */
export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  const download = new URL(req.url).searchParams.get("download");
  if (download !== null && download !== "0" && download !== "1") throw new ApiError(422, "download must be 0 or 1", [{ path: "download", message: "must be 0 or 1" }]);
  if (download === "1") {
    const frozen = await protocolCanonical(study.id);
    if (!frozen) throw new ApiError(404, "the study's protocol is not frozen");
    return new Response(frozen.canonical, {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="protocol-${frozen.sha256.slice(0, 12)}.json"`,
        "x-content-sha256": frozen.sha256,
        "cache-control": "no-store",
      },
    });
  }
  return protocolState(study.id);
});

export const POST = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  const body = await readJson(req, FreezeProtocolBody, 200_000);
  return freezeProtocol({ id: user.id, requestId }, study.id, body);
});
