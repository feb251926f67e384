import { z } from "zod";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password";
import { lineText, multilineText } from "@/lib/validation/text";

/** Body of POST /api/v1/studies/{id}/graders. Pure zod, shared by the handler, the form and the OpenAPI document. */
export const addGraderSchema = z.strictObject(
  {
    email: lineText({ error: "email is required" })
      .toLowerCase()
      .pipe(z.email({ error: "email is not a valid address" }))
      .meta({ example: "grader@hospital.example" }),
    name: lineText({ error: "name is required" })
      .min(1, { error: "name is required" })
      .max(200, { error: "name is longer than 200 characters" })
      .meta({ description: "Used only when a new account is created; an existing account keeps its name." }),
    specialties: z
      .array(
        lineText({ error: "each specialty must be text" })
          .min(1, { error: "a specialty cannot be blank" })
          .max(100, { error: "a specialty is longer than 100 characters" }),
        { error: "specialties must be a list of names" },
      )
      .max(20, { error: "at most 20 specialties" })
      .default([])
      .meta({ description: "Clinical specialties, added to the grader's account (never removed here)", example: ["Ophthalmology"] }),
    password: multilineText({ error: "password must be text" })
      .min(MIN_PASSWORD_LENGTH, { error: `password must have at least ${MIN_PASSWORD_LENGTH} characters` })
      .max(256, { error: "password is longer than 256 characters" })
      .optional()
      .meta({ description: "Initial password for a new account; when omitted a strong one is generated and returned once." }),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : "body must be a JSON object") },
);
export type AddGraderInput = z.output<typeof addGraderSchema>;
