import { randomUUID } from "node:crypto";
import { recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { isUuid } from "@/lib/db/uuid";
import { Prisma, type JudgeEndpoint } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/errors/api-error";
import type { JudgeEndpointInput, JudgeEndpointPatch, JudgeEndpointView } from "./contract";
import { encryptApiKey } from "./secret";

/**
 * Judge endpoints, set up by admins only: the server connects to the base URL
 * given, so letting anyone else choose it would let them point the server at
 * internal addresses (SSRF). A key entered here is stored encrypted and never
 * leaves the server again: views say only whether one is stored.
 */
export function endpointView(e: JudgeEndpoint): JudgeEndpointView {
  return {
    id: e.id,
    name: e.name,
    baseUrl: e.baseUrl,
    model: e.model,
    apiKeyEnv: e.apiKeyEnv,
    hasStoredKey: e.apiKeyEncrypted !== null,
    logprobs: e.logprobs,
    concurrency: e.concurrency,
    timeoutMs: e.timeoutMs,
    pricePer1kPromptTokens: e.pricePer1kPromptTokens,
    pricePer1kCompletionTokens: e.pricePer1kCompletionTokens,
    embeddingModel: e.embeddingModel,
  };
}

export async function listEndpoints(): Promise<JudgeEndpointView[]> {
  return (await getDb().judgeEndpoint.findMany({ orderBy: { name: "asc" } })).map(endpointView);
}

const nameTaken = (name: string) => new ApiError(409, `there is an endpoint named "${name}" already`);
// What the audit log keeps of an endpoint: never the key.
const audited = (v: JudgeEndpointView) => ({ ...v });

export async function createEndpoint(input: JudgeEndpointInput, actorId: string, requestId: string | null): Promise<JudgeEndpointView> {
  const id = randomUUID();
  try {
    return await getDb().$transaction(async (tx) => {
      const e = await tx.judgeEndpoint.create({
        data: {
          id,
          name: input.name,
          baseUrl: input.baseUrl.replace(/\/+$/, ""),
          model: input.model,
          apiKeyEnv: input.apiKeyEnv ?? null,
          apiKeyEncrypted: input.apiKey ? encryptApiKey(input.apiKey, id) : null,
          logprobs: input.logprobs ?? true,
          concurrency: input.concurrency ?? 4,
          timeoutMs: input.timeoutMs ?? 60_000,
          pricePer1kPromptTokens: input.pricePer1kPromptTokens ?? 0,
          pricePer1kCompletionTokens: input.pricePer1kCompletionTokens ?? 0,
          embeddingModel: input.embeddingModel ?? null,
          createdById: actorId,
        },
      });
      const view = endpointView(e);
      await recordAudit(tx, { actorId, action: "judge-endpoint.create", entityType: "JudgeEndpoint", entityId: id, after: audited(view), requestId });
      return view;
    });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") throw nameTaken(input.name);
    throw err;
  }
}

export async function updateEndpoint(endpointId: string, patch: JudgeEndpointPatch, actorId: string, requestId: string | null): Promise<JudgeEndpointView> {
  if (!isUuid(endpointId)) throw new ApiError(404, "endpoint not found");
  try {
    return await getDb().$transaction(async (tx) => {
      const before = await tx.judgeEndpoint.findUnique({ where: { id: endpointId } });
      if (!before) throw new ApiError(404, "endpoint not found");
      const keyEnv = patch.apiKeyEnv === undefined ? before.apiKeyEnv : patch.apiKeyEnv;
      const keyStored = patch.apiKey === undefined ? before.apiKeyEncrypted : patch.apiKey === null ? null : encryptApiKey(patch.apiKey, endpointId);
      // One source of the key: naming a variable drops a stored key, storing a key drops the variable.
      const data = {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.baseUrl !== undefined ? { baseUrl: patch.baseUrl.replace(/\/+$/, "") } : {}),
        ...(patch.model !== undefined ? { model: patch.model } : {}),
        apiKeyEnv: patch.apiKey ? null : keyEnv,
        apiKeyEncrypted: patch.apiKeyEnv ? null : keyStored,
        ...(patch.logprobs !== undefined ? { logprobs: patch.logprobs } : {}),
        ...(patch.concurrency !== undefined ? { concurrency: patch.concurrency } : {}),
        ...(patch.timeoutMs !== undefined ? { timeoutMs: patch.timeoutMs } : {}),
        ...(patch.pricePer1kPromptTokens !== undefined ? { pricePer1kPromptTokens: patch.pricePer1kPromptTokens } : {}),
        ...(patch.pricePer1kCompletionTokens !== undefined ? { pricePer1kCompletionTokens: patch.pricePer1kCompletionTokens } : {}),
        ...(patch.embeddingModel !== undefined ? { embeddingModel: patch.embeddingModel } : {}),
      };
      if (patch.apiKey && patch.apiKeyEnv) throw new ApiError(422, "invalid input", [{ path: "apiKey", message: "give the key either as apiKey or apiKeyEnv, not both" }]);
      const e = await tx.judgeEndpoint.update({ where: { id: endpointId }, data });
      const view = endpointView(e);
      await recordAudit(tx, { actorId, action: "judge-endpoint.update", entityType: "JudgeEndpoint", entityId: endpointId, before: audited(endpointView(before)), after: audited(view), requestId });
      return view;
    });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") throw nameTaken(patch.name ?? "");
    throw err;
  }
}
