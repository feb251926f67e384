import { extendZodWithOpenApi, OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

// Also in ./zod-openapi (for schema modules that load first); calling it twice is harmless.
extendZodWithOpenApi(z);

/**
 * Contract-first API: every /api/v1 endpoint's request and response schemas are
 * zod schemas declared in its feature's `contract.ts`, which both the route
 * handler (validation) and this registry (the OpenAPI document) use.
 */

export const registry = new OpenAPIRegistry();

export const bearerAuth = registry.registerComponent("securitySchemes", "bearerAuth", {
  type: "http",
  scheme: "bearer",
  description: "A personal API token from `npm run admin -- create-token --email <you>`.",
});

/** The error body every endpoint answers with on failure. */
export const ErrorBody = registry.register(
  "Error",
  z.object({
    error: z.string().openapi({ example: "study not found" }),
    details: z.unknown().optional(),
  }),
);

/** Standard error responses, to spread into a path's `responses`. */
export function errorResponses(...statuses: (400 | 401 | 403 | 404 | 409 | 413 | 422)[]) {
  const text: Record<number, string> = {
    400: "Malformed request (not JSON, wrong content type)",
    401: "No valid session or Bearer token",
    403: "Your role may not do this",
    404: "Not found, or not yours",
    409: "Conflicts with the current state",
    413: "Body larger than the limit",
    422: "Valid JSON that breaks the rules; details name each problem",
  };
  return Object.fromEntries(
    statuses.map((s) => [s, { description: text[s], content: { "application/json": { schema: ErrorBody } } }]),
  );
}

const RETRY_AFTER = {
  "Retry-After": { description: "Seconds to wait before sending the file again", schema: { type: "integer" as const, minimum: 1 } },
};

/**
 * The answers of an upload endpoint beyond its own: the file's limits (413),
 * and the import slots of lib/uploads/slots.ts (409 for a study's one import
 * at a time, 429 for the server's pool), both with Retry-After. `conflict`
 * says what else the endpoint's 409 means; `bodyLimit` names its size setting.
 */
export function uploadResponses(o: { conflict?: string; bodyLimit?: string; perStudy?: boolean } = {}) {
  const json = { "application/json": { schema: ErrorBody } };
  return {
    ...(o.perStudy === false
      ? {}
      : {
          409: {
            description: `Another import into this study is running (any instance): try again after Retry-After${o.conflict ? `; or ${o.conflict}` : ""}`,
            headers: RETRY_AFTER,
            content: json,
          },
        }),
    413: {
      description: `The file is larger than ${o.bodyLimit ?? "IMPORT_MAX_BYTES"}${o.perStudy === false ? "" : ", decompresses to more than UPLOAD_MAX_PART_BYTES / UPLOAD_MAX_INFLATED_BYTES / UPLOAD_MAX_SHARED_STRINGS_BYTES, has a row longer than UPLOAD_MAX_ROW_BYTES"}, or needs more memory than IMPORT_WORKER_HEAP_MB to read; the message (and \`details.limit\` where there is one) names the setting`,
      content: json,
    },
    429: {
      description: "This server is already running IMPORT_MAX_CONCURRENT imports: try again after Retry-After",
      headers: RETRY_AFTER,
      content: json,
    },
  };
}
