import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password-rule";
import { lineText, multilineText } from "@/lib/validation/text";

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

/** The password rule, as the form shows it beside the field and the API's 422 names it. */
export const PASSWORD_RULE = `password must have at least ${MIN_PASSWORD_LENGTH} characters`;

/** Account administration (ADMIN): the same rules as `npm run admin -- create-user`. */
export const createUserBody = z
  .object({
    email: lineText().max(320),
    name: lineText().max(200),
    role: z.enum(["ADMIN", "LEAD", "GRADER"]),
    password: multilineText()
      .max(256)
      .optional()
      .meta({ description: `${PASSWORD_RULE} (a shorter one is a 422 naming the rule). Omitted, with e-mail on: the person is e-mailed an invitation to choose their own (invitationId); with e-mail off, a 422` }),
    specialties: z.array(lineText().max(100)).max(50).optional(),
  })
  .meta({ id: "CreateUser" });
/** PATCH /api/v1/users/{id}: any of name, role, active, a new password (at least one). */
export const updateUserBody = z
  .strictObject(
    {
      name: lineText({ error: "name must be text" })
        .trim()
        .min(1, { error: "name cannot be blank" })
        .max(200, { error: "name is longer than 200 characters" })
        .optional(),
      role: z.enum(["ADMIN", "LEAD", "GRADER"], { error: "role must be ADMIN, LEAD or GRADER" }).optional(),
      active: z.boolean({ error: "active must be true or false" }).optional(),
      password: multilineText({ error: "password must be text" })
        .min(MIN_PASSWORD_LENGTH, { error: PASSWORD_RULE })
        .max(256, { error: "password is longer than 256 characters" })
        .optional()
        .meta({ description: `A new password (${PASSWORD_RULE}); the user's sessions end` }),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : "body must be a JSON object") },
  )
  .refine((b) => Object.values(b).some((v) => v !== undefined), { error: "nothing to change: give name, role, active or password" })
  .meta({ id: "UpdateUser" });
export type UpdateUserInput = z.output<typeof updateUserBody>;

const OpenWorkRow = z.object({ studyId: z.uuid(), studyName: z.string(), openAssignments: z.int(), openAdjudications: z.int() });

const UserRow = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  role: z.enum(["ADMIN", "LEAD", "GRADER"]),
  active: z.boolean(),
  specialties: z.array(z.string()),
  external: z.boolean().meta({ description: "A pseudonymous rater of imported grades (not an account: never signs in, cannot be edited)" }),
  openWork: z.array(OpenWorkRow),
});

registry.registerPath({
  method: "get",
  path: "/api/v1/users",
  summary: "All users (admins)",
  tags: ["Account"],
  responses: { 200: { description: "Users", content: { "application/json": { schema: z.object({ users: z.array(UserRow) }) } } }, ...errorResponses(401, 403) },
});
registry.registerPath({
  method: "post",
  path: "/api/v1/users",
  summary: "Create a user (admins)",
  tags: ["Account"],
  request: { body: { content: { "application/json": { schema: createUserBody } } } },
  responses: {
    201: { description: "Created", content: { "application/json": { schema: z.object({ id: z.uuid(), invitationId: z.uuid().optional().meta({ description: "The invitation e-mailed (no password given)" }) }) } } },
    ...errorResponses(400, 401, 403, 409, 422),
  },
});
registry.registerPath({
  method: "patch",
  path: "/api/v1/users/{id}",
  summary: "Edit a user (admins): name, role, deactivate or reactivate, reset the password; audited",
  description:
    "A deactivated user loses access at once (sessions ended, API tokens revoked); a password reset ends their sessions. An admin cannot deactivate themselves nor change their own role (409); a role the account's active study memberships cannot hold is 409.",
  tags: ["Account"],
  request: { params: z.object({ id: z.uuid() }), body: { content: { "application/json": { schema: updateUserBody } } } },
  responses: {
    200: {
      description: "Updated",
      content: {
        "application/json": {
          schema: z.object({
            id: z.uuid(),
            name: z.string(),
            role: z.enum(["ADMIN", "LEAD", "GRADER"]),
            active: z.boolean(),
            passwordReset: z.boolean(),
            openWork: z
              .array(OpenWorkRow)
              .meta({ description: "On deactivation: the unsubmitted assignments the user leaves, per study (each study's leads see it in its audit and progress page)" }),
          }),
        },
      },
    },
    ...errorResponses(400, 401, 403, 404, 409, 422),
  },
});
export const UnlockUserParams = z.object({ id: z.uuid() });
registry.registerPath({
  method: "post",
  path: "/api/v1/users/{id}/unlock",
  summary: "Clear a user's sign-in throttling (admins): forgets the account's failed sign-ins from every address; audited",
  tags: ["Account"],
  request: { params: UnlockUserParams },
  responses: {
    200: { description: "Unlocked", content: { "application/json": { schema: z.object({ id: z.uuid(), clearedFailures: z.int() }) } } },
    ...errorResponses(401, 403, 404),
  },
});
