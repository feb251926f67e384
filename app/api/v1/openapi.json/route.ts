import { buildOpenApiDocument } from "@/lib/openapi/document";

export const dynamic = "force-static";

/** The OpenAPI 3.1 document of /api/v1, generated from the same zod schemas the handlers validate with. */
export function GET() {
  return Response.json(buildOpenApiDocument());
}
