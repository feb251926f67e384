import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";
import { RubricDocumentSchema } from "./document";

/** The rubric document's JSON Schema is published in the OpenAPI document under this name. */
export const RubricDocument = registry.register("RubricDocument", RubricDocumentSchema);

export const RubricTemplateResponse = registry.register(
  "RubricTemplate",
  z.object({ key: z.string(), name: z.string(), citation: z.string(), description: z.string(), rubric: RubricDocument }),
);

registry.registerPath({
  method: "get",
  path: "/api/v1/rubric-templates",
  summary: "The instruments a lead can start a rubric from, each with its citation and its rubric document",
  tags: ["Rubrics"],
  responses: {
    200: { description: "Templates", content: { "application/json": { schema: z.object({ templates: z.array(RubricTemplateResponse) }) } } },
    ...errorResponses(401, 403),
  },
});
