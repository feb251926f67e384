import { OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { registry } from "@/lib/api/registry";
// Each feature registers its paths when its contract module is loaded.
import "./contracts";

export function buildOpenApiDocument() {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Clingrade API",
      version: "1",
      description:
        "Blinded expert grading of LLM answers to clinical questions. Authenticate with `Authorization: Bearer <token>`; the same role rules apply as in the web app.",
    },
    servers: [{ url: "/" }],
    security: [{ bearerAuth: [] }],
  });
}
