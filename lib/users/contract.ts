import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";

export const MeResponse = registry.register(
  "Me",
  z.object({
    id: z.uuid(),
    email: z.email(),
    name: z.string(),
    role: z.enum(["ADMIN", "LEAD", "GRADER"]),
  }),
);

registry.registerPath({
  method: "get",
  path: "/api/v1/me",
  summary: "Who the token belongs to",
  tags: ["Account"],
  responses: { 200: { description: "The caller", content: { "application/json": { schema: MeResponse } } }, ...errorResponses(401) },
});
