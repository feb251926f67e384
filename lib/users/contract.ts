import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";
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

/** Account administration (ADMIN): the same rules as `npm run admin -- create-user`. */
export const createUserBody = z
  .object({
    email: lineText().max(320),
    name: lineText().max(200),
    role: z.enum(["ADMIN", "LEAD", "GRADER"]),
    password: multilineText().max(256),
    specialties: z.array(lineText().max(100)).max(50).optional(),
  })
  .meta({ id: "CreateUser" });
export const setActiveBody = z.object({ active: z.boolean() }).meta({ id: "SetUserActive" });

const UserRow = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  role: z.enum(["ADMIN", "LEAD", "GRADER"]),
  active: z.boolean(),
  specialties: z.array(z.string()),
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
    201: { description: "Created", content: { "application/json": { schema: z.object({ id: z.uuid() }) } } },
    ...errorResponses(400, 401, 403, 409, 422),
  },
});
registry.registerPath({
  method: "patch",
  path: "/api/v1/users/{id}",
  summary: "Deactivate or reactivate a user (admins); a deactivated user loses access at once",
  tags: ["Account"],
  request: { params: z.object({ id: z.uuid() }), body: { content: { "application/json": { schema: setActiveBody } } } },
  responses: { 200: { description: "Updated", content: { "application/json": { schema: z.object({ id: z.uuid(), active: z.boolean() }) } } }, ...errorResponses(400, 401, 403, 404, 422) },
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
