import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password-rule";
import { lineText, multilineText } from "@/lib/validation/text";
import { PREVIEW_KINDS } from "./preview";

/** The /api/v1 contract of e-mail: invitations, deadlines, the digest setting and its unsubscribe link. */

const strict = { error: (issue: { code: string; keys?: string[] }) => (issue.code === "unrecognized_keys" ? `unknown field ${issue.keys!.join(", ")}` : "body must be a JSON object") };

const token = lineText({ error: "token must be text" }).max(400, { error: "token is longer than 400 characters" }).meta({ description: "The token from the link (after #)" });

export const OpenInvitationBody = registry.register("OpenInvitation", z.strictObject({ token }, strict).meta({ description: "An invitation link's token" }));
export const AcceptInvitationBody = registry.register(
  "AcceptInvitation",
  z
    .strictObject(
      {
        token,
        password: multilineText({ error: "password must be text" })
          .min(MIN_PASSWORD_LENGTH, { error: `password must have at least ${MIN_PASSWORD_LENGTH} characters` })
          .max(256, { error: "password is longer than 256 characters" }),
      },
      strict,
    )
    .meta({ description: "The link's token and the password its owner chooses" }),
);
export const UnsubscribeBody = registry.register("Unsubscribe", z.strictObject({ token }, strict).meta({ description: "An unsubscribe link's token" }));

const isoDay = z
  .string({ error: "a deadline must be a date YYYY-MM-DD" })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "a deadline must be a date YYYY-MM-DD" })
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), { error: "a deadline must be a real date" });

export const SetDeadlinesBody = registry.register(
  "SetDeadlines",
  z
    .strictObject(
      {
        deadline: isoDay.nullable().optional().meta({ description: "The study's deadline (a UTC day), null: none; left out: unchanged" }),
        reminderDaysBefore: z.int({ error: "reminderDaysBefore must be a whole number" }).min(0).max(60).optional().meta({ description: "Graders with open work are reminded this many days before their deadline, and on the day (default 3)" }),
        graders: z
          .array(z.strictObject({ userId: z.uuid({ error: "userId must be a grader's id" }), deadline: isoDay.nullable() }, strict), { error: "graders must be a list" })
          .max(500)
          .optional()
          .meta({ description: "Graders' own deadlines in this study (null: the study's)" }),
      },
      strict,
    )
    .meta({ description: "A study's deadline and reminders, and graders' own deadlines" }),
);

export const MailSettingsBody = registry.register(
  "MailSettings",
  z.strictObject({ weeklyDigest: z.boolean({ error: "weeklyDigest must be true or false" }) }, strict).meta({ description: "Your own e-mail settings" }),
);

const InvitationStateSchema = z.enum(["queued", "sent", "opened", "accepted", "expired", "revoked", "bounced"]);
const InvitationRowSchema = registry.register(
  "Invitation",
  z.object({
    id: z.uuid(),
    userId: z.uuid(),
    name: z.string(),
    email: z.string(),
    state: InvitationStateSchema,
    createdAt: z.string(),
    expiresAt: z.string(),
    sentAt: z.string().nullable(),
  }),
);

const json = (schema: z.ZodType, description: string) => ({ description, content: { "application/json": { schema } } });
const StudyParams = z.object({ id: z.uuid().meta({ description: "Study id" }) });
const InvitationParams = z.object({ id: z.uuid().meta({ description: "Study id" }), invitationId: z.uuid() });
const UNUSABLE = "The link cannot be used: unknown, used, expired, revoked or replaced all get this one answer";
const THROTTLED = { description: "Too many bad links from this address: try again after Retry-After", headers: { "Retry-After": { schema: { type: "integer" as const, minimum: 1 } } } };

registry.registerPath({
  method: "post",
  path: "/api/v1/invitations/open",
  summary: "Open an invitation link (no sign-in)",
  description: "Marks the invitation opened and says how its owner may sign in. Throttled per address as sign-ins are.",
  tags: ["Invitations"],
  security: [],
  request: { body: { required: true, content: { "application/json": { schema: OpenInvitationBody } } } },
  responses: {
    200: json(z.object({ passwords: z.boolean(), sso: z.string().nullable().meta({ description: "The single sign-on button's name, when it is on" }) }), "The link works"),
    404: json(z.object({ error: z.string() }), UNUSABLE),
    429: THROTTLED,
    ...errorResponses(400, 413, 422),
  },
});

registry.registerPath({
  method: "post",
  path: "/api/v1/invitations/accept",
  summary: "Choose a password from an invitation link (no sign-in)",
  description: "Sets the account's password, once: the link then stops working. Throttled per address as sign-ins are.",
  tags: ["Invitations"],
  security: [],
  request: { body: { required: true, content: { "application/json": { schema: AcceptInvitationBody } } } },
  responses: {
    200: json(z.object({ email: z.string().meta({ description: "The address to sign in with" }) }), "Password set"),
    404: json(z.object({ error: z.string() }), UNUSABLE),
    429: THROTTLED,
    ...errorResponses(400, 409, 413, 422),
  },
});

registry.registerPath({
  method: "post",
  path: "/api/v1/invitations/sso",
  summary: "Accept an invitation by single sign-on (no sign-in)",
  description:
    "Checks the link and sets a short-lived HttpOnly cookie for /api/auth: the single sign-on that follows (/api/auth/signin/oidc) accepts the invitation, once, for the account it invites. Throttled per address as sign-ins are.",
  tags: ["Invitations"],
  security: [],
  request: { body: { required: true, content: { "application/json": { schema: OpenInvitationBody } } } },
  responses: {
    200: json(z.object({ sso: z.literal(true) }), "The link works: sign in with single sign-on now"),
    404: json(z.object({ error: z.string() }), UNUSABLE),
    429: THROTTLED,
    ...errorResponses(400, 409, 413, 422),
  },
});

registry.registerPath({
  method: "post",
  path: "/api/v1/unsubscribe",
  summary: "Stop the weekly digest from its link (no sign-in)",
  description: "Turns off the weekly digest of the account the signed link names, and nothing else.",
  tags: ["Invitations"],
  security: [],
  request: { body: { required: true, content: { "application/json": { schema: UnsubscribeBody } } } },
  responses: { 200: json(z.object({ weeklyDigest: z.literal(false) }), "Unsubscribed"), 404: json(z.object({ error: z.string() }), "Not a valid link"), ...errorResponses(400, 413, 422) },
});

registry.registerPath({
  method: "put",
  path: "/api/v1/me/mail-settings",
  summary: "Your e-mail settings: the weekly digest of your open work",
  tags: ["Invitations"],
  request: { body: { required: true, content: { "application/json": { schema: MailSettingsBody } } } },
  responses: { 200: json(z.object({ weeklyDigest: z.boolean() }), "Saved"), ...errorResponses(400, 401, 413, 422) },
});

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/invitations",
  summary: "A study's invitations with their state",
  tags: ["Invitations"],
  request: { params: StudyParams },
  responses: { 200: json(z.object({ mail: z.boolean().meta({ description: "Whether e-mail is on" }), invitations: z.array(InvitationRowSchema) }), "Newest first"), ...errorResponses(401, 403, 404) },
});

for (const [action, summary] of [
  ["resend", "Send an invitation again with a new link and expiry (the older link stops working)"],
  ["revoke", "Revoke an invitation: its link stops working"],
] as const) {
  registry.registerPath({
    method: "post",
    path: `/api/v1/studies/{id}/invitations/{invitationId}/${action}`,
    summary,
    tags: ["Invitations"],
    request: { params: InvitationParams },
    responses: { 200: json(z.object({ id: z.uuid(), state: InvitationStateSchema }), "Done"), ...errorResponses(401, 403, 404, 409) },
  });
}

registry.registerPath({
  method: "put",
  path: "/api/v1/studies/{id}/deadlines",
  summary: "Set the study's deadline, its reminders and graders' own deadlines",
  tags: ["Invitations"],
  request: { params: StudyParams, body: { required: true, content: { "application/json": { schema: SetDeadlinesBody } } } },
  responses: {
    200: json(z.object({ deadline: z.string().nullable(), reminderDaysBefore: z.int(), graders: z.array(z.object({ userId: z.uuid(), deadline: z.string().nullable() })) }), "Saved"),
    ...errorResponses(400, 401, 403, 404, 413, 422),
  },
});

export const MailPreviewResponse = registry.register(
  "MailPreview",
  z.object({
    mail: z.boolean().meta({ description: "Whether e-mail is on (the preview is shown either way)" }),
    templates: z.array(
      z.object({
        kind: z.enum(PREVIEW_KINDS),
        label: z.string(),
        subject: z.string(),
        text: z.string().meta({ description: "The plain-text body" }),
        html: z.string().meta({ description: "The HTML body (a whole document)" }),
      }),
    ),
  }),
);

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/mail-preview",
  summary: "Every e-mail template as this study's graders and leads would get it, with sample data",
  description: "Rendered with the study's grader-facing title and made-up people and counts; never the study's name or a model's. The study's leads only.",
  tags: ["Invitations"],
  request: { params: StudyParams },
  responses: { 200: json(MailPreviewResponse, "Plain-text and HTML bodies of each template"), ...errorResponses(401, 403, 404) },
});
