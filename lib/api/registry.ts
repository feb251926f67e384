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
