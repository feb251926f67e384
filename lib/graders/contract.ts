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
        initialPassword: z.string().optional().meta({ description: "Only for a new account with e-mail off: shown this once, never stored in plain text" }),
        invitationId: z.uuid().optional().meta({ description: "Only for a new account with e-mail on: the invitation e-mailed to the grader to choose a password" }),
      }),
    ),
    notAdded: z
      .array(z.object({ line: z.int(), email: z.string(), message: z.string() }))
      .meta({
        description:
          "Lines that cannot be added: no account has the email yet and the line gives no name, or the account cannot be a grader here. One message for all, so the answer does not tell accounts apart.",
      }),
  }),
);

registry.registerPath({
  method: "post",
  path: "/api/v1/studies/{id}/graders/bulk",
  summary: "Add many graders at once",
  description:
    "Each line is a grader: a new email with a name creates a grader account (a password is generated and returned once), an existing grader account joins the study (a removed one comes back). A problem in the lines themselves (a bad email, a duplicate, one already in the study) is a 422 whose details name each bad line; nothing is written. A line that cannot be added (no account yet and no name, or an account that cannot be a grader here) is listed in notAdded with one message whatever the reason, and the other lines are added.",
  tags: ["Graders"],
  request: {
    params: z.object({ id: z.uuid().meta({ description: "Study id" }) }),
    body: { required: true, content: { "application/json": { schema: BulkAddGradersBody } } },
  },
  responses: {
    201: { description: "Added (notAdded lists the lines that could not be)", content: { "application/json": { schema: BulkAddedGraders } } },
    200: { description: "No line could be added (see notAdded)", content: { "application/json": { schema: BulkAddedGraders } } },
    ...errorResponses(400, 401, 403, 404, 409, 413, 422),
  },
});
