import { buildOpenApiDocument } from "@/lib/openapi/document";

/** The committed lib/api-client/openapi.json: the served document, formatted for diffs. */
export const OPENAPI_FILE = "lib/api-client/openapi.json";

export function openApiText(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
