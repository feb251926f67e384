import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";

import { MULTIPLICITY } from "./contract-values";

export { MULTIPLICITY };

/** What the lead plans to analyse, frozen with the design (issue #36 item 2). */
export const PlannedAnalyses = registry.register(
  "PlannedAnalyses",
  z.strictObject({
    primaryOutcome: z.string().trim().min(3).max(2000).meta({ description: "The primary outcome in words, e.g. 'the mean total per model'" }),
    statistics: z.array(z.string().trim().min(2).max(300)).min(1).max(30).meta({ description: "The statistics and their conventions, e.g. 'Cliff's delta with bootstrap CI'" }),
    multiplicity: z.enum(MULTIPLICITY).meta({ description: "Correction for multiple comparisons (p.adjust's names)" }),
    notes: z.string().max(5000).optional(),
  }),
);

export const FreezeProtocolBody = registry.register(
  "FreezeProtocol",
  z.strictObject({
    assignmentSeed: z.string().trim().min(1).max(100).meta({ description: "The seed the assignment will use (shown, replayable)" }),
    plannedAnalyses: PlannedAnalyses,
    planner: z.array(z.record(z.string(), z.unknown())).max(20).optional().meta({ description: "Planner answers (POST /api/v1/planner) the sample size rests on" }),
  }),
);
export type FreezeProtocolBody = z.infer<typeof FreezeProtocolBody>;

export const ProtocolAmendmentSchema = registry.register(
  "ProtocolAmendment",
  z.object({
    id: z.uuid(),
    at: z.iso.datetime(),
    by: z.string().meta({ description: "Who amended it (name)" }),
    fields: z.array(z.string()),
    before: z.unknown(),
    after: z.unknown(),
    reason: z.string(),
  }),
);

export const ProtocolState = registry.register(
  "ProtocolState",
  z.object({
    frozen: z.boolean(),
    frozenAt: z.iso.datetime().nullable(),
    frozenBy: z.string().nullable(),
    sha256: z.string().nullable().meta({ description: "SHA-256 (hex) of the canonical JSON (`protocol` serialised with sorted keys and no spaces)" }),
    protocol: z.record(z.string(), z.unknown()).nullable(),
    amendments: z.array(ProtocolAmendmentSchema),
  }),
);
export type ProtocolState = z.infer<typeof ProtocolState>;

const params = z.object({ id: z.uuid() });

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/protocol",
  summary: "The study's frozen protocol and its amendments (leads)",
  description: "With `download=1`, the canonical JSON itself (the bytes the SHA-256 is of) as an attachment.",
  tags: ["Studies"],
  request: { params, query: z.object({ download: z.enum(["0", "1"]).optional() }) },
  responses: {
    200: { description: "The protocol's state, or the canonical JSON with download=1", content: { "application/json": { schema: ProtocolState } } },
    ...errorResponses(401, 403, 404),
  },
});

registry.registerPath({
  method: "post",
  path: "/api/v1/studies/{id}/protocol",
  summary: "Freeze the study's protocol before the first assignment (leads)",
  description:
    "Stores the rubric documents, the design (N, k, escalation thresholds and rules, assignment design and seed, specialty matching, headline scoring), the planned analyses and planner answers as canonical JSON with its SHA-256. Once frozen, a change of a frozen setting needs `amendmentReason` on PATCH /studies/{id} and is recorded as a dated amendment; assigning with another seed or design is refused.",
  tags: ["Studies"],
  request: { params, body: { content: { "application/json": { schema: FreezeProtocolBody } } } },
  responses: {
    200: { description: "The frozen protocol", content: { "application/json": { schema: ProtocolState } } },
    ...errorResponses(400, 401, 403, 404, 409, 422),
  },
});
