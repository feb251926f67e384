import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";
import { bulkAddGradersSchema } from "./schema";

/** The bulk grader add's contract: the request schema is the one the handler validates with (./schema.ts). */
export const BulkAddGradersBody = registry.register(
  "BulkAddGraders",
  bulkAddGradersSchema.meta({ description: "Many graders to add to the study at once (csv or graders)" }),
);

const BulkAddedGraders = registry.register(
  "BulkAddedGraders",
  z.object({
    added: z.array(
      z.object({
        line: z.int().meta({ description: "The line (or entry number) the grader came from" }),
        email: z.string(),
        userId: z.uuid(),
        accountCreated: z.boolean(),
        reactivated: z.boolean().meta({ description: "An earlier, removed membership of this study was turned back on" }),
        specialties: z.array(z.string()).meta({ description: "The grader's specialties in this study, as stored" }),
        initialPassword: z.string().optional().meta({ description: "Only for a new account: shown this once, never stored in plain text" }),
      }),
    ),
  }),
);

registry.registerPath({
  method: "post",
  path: "/api/v1/studies/{id}/graders/bulk",
  summary: "Add many graders at once (all or nothing)",
  description:
    "Each line is a grader: a new email creates a grader account (a name is needed; a password is generated and returned once), an existing grader account joins the study (a removed one comes back). Any problem (a bad email, a missing name, a duplicate, an account that cannot be a grader here, one already in the study) is a 422 whose details name each bad line; nothing is written.",
  tags: ["Graders"],
  request: {
    params: z.object({ id: z.uuid().meta({ description: "Study id" }) }),
    body: { required: true, content: { "application/json": { schema: BulkAddGradersBody } } },
  },
  responses: {
    201: { description: "All added", content: { "application/json": { schema: BulkAddedGraders } } },
    ...errorResponses(400, 401, 403, 404, 409, 413, 422),
  },
});
