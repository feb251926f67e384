import { z } from "zod";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password";
import { lineText, multilineText } from "@/lib/validation/text";

const specialtyList = z
  .array(
    lineText({ error: "each specialty must be text" })
      .min(1, { error: "a specialty cannot be blank" })
      .max(100, { error: "a specialty is longer than 100 characters" }),
    { error: "specialties must be a list of names" },
  )
  .max(20, { error: "at most 20 specialties" });

/** Body of POST /api/v1/studies/{id}/graders. Pure zod, shared by the handler, the form and the OpenAPI document. */
export const addGraderSchema = z.strictObject(
  {
    email: lineText({ error: "email is required" })
      .toLowerCase()
      .pipe(z.email({ error: "email is not a valid address" }))
      .meta({ example: "grader@hospital.example" }),
    name: lineText({ error: "name must be text" })
      .max(200, { error: "name is longer than 200 characters" })
      .optional()
      .meta({ description: "Needed only when a new account is created; an existing account keeps its name." }),
    specialties: specialtyList
      .optional()
      .meta({
        description:
          "The grader's clinical specialties in this study only (their account and other studies are untouched). Omitted: a grader joining the study starts with their account's own specialties (set by an administrator), and a returning one keeps theirs.",
        example: ["Ophthalmology"],
      }),
    password: multilineText({ error: "password must be text" })
      .min(MIN_PASSWORD_LENGTH, { error: `password must have at least ${MIN_PASSWORD_LENGTH} characters` })
      .max(256, { error: "password is longer than 256 characters" })
      .optional()
      .meta({ description: "Initial password for a new account; when omitted a strong one is generated and returned once." }),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : "body must be a JSON object") },
);
export type AddGraderInput = z.output<typeof addGraderSchema>;

/** Body of PATCH /api/v1/studies/{id}/graders/{userId}: the grader's specialties in this study, replaced whole. */
export const setGraderSpecialtiesSchema = z.strictObject(
  {
    specialties: specialtyList.meta({
      description: "The grader's clinical specialties in this study only, replacing the ones it had here (an empty list: none)",
      example: ["Ophthalmology", "Anesthesia"],
    }),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : "body must be a JSON object") },
);
export type SetGraderSpecialtiesInput = z.output<typeof setGraderSpecialtiesSchema>;

/** One grader of a bulk add: an email, a name when the account is new, their specialties in this study. */
export const bulkGraderEntrySchema = addGraderSchema.omit({ password: true });
export type BulkGraderEntry = z.output<typeof bulkGraderEntrySchema>;

export const MAX_BULK_GRADERS = 500;

/**
 * Body of POST /api/v1/studies/{id}/graders/bulk: either `csv` (what a lead
 * pastes or uploads: one grader per line, `email,name,specialties`) or
 * `graders` (the same as JSON). All or nothing.
 */
export const bulkAddGradersSchema = z
  .strictObject(
    {
      csv: multilineText({ error: "csv must be text" })
        .max(200_000, { error: "csv is longer than 200,000 characters" })
        .optional()
        .meta({
          description:
            "One grader per line: `email`, or `email,name,specialties` (specialties separated by `;` or `|`; a header line `email,name,specialties` is skipped). A line of several emails adds each. `;` or tab may separate the columns instead of `,`.",
          example: "email,name,specialties\nana@hospital.example,Ana Ruiz,Ophthalmology;Anesthesia\nexisting.grader@hospital.example",
        }),
      graders: z
        .array(bulkGraderEntrySchema, { error: "graders must be a list" })
        .min(1, { error: "graders is empty" })
        .max(MAX_BULK_GRADERS, { error: `at most ${MAX_BULK_GRADERS} graders at once` })
        .optional()
        .meta({ description: "The graders as JSON (instead of csv); errors name the entry's 1-based number as its line" }),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : "body must be a JSON object") },
  )
  .refine((b) => (b.csv === undefined) !== (b.graders === undefined), { error: "give either csv or graders (exactly one)" });
export type BulkAddGradersInput = z.output<typeof bulkAddGradersSchema>;
