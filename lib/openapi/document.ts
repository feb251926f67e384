import { OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { registry } from "@/lib/api/registry";
import { OPERATION_IDS } from "./operation-ids";
// Each feature registers its paths when its contract module is loaded.
import "./contracts";

/** Every tag the operations use, described (the document lists them in this order). */
const TAGS: { name: string; description: string }[] = [
  { name: "Account", description: "Who you are, and the users of the instance (admins)" },
  { name: "Studies", description: "Studies: their settings, status and items" },
  { name: "Rubrics", description: "The instruments a study's rubrics start from" },
  { name: "Graders", description: "A study's graders: adding, specialties, removing" },
  { name: "Invitations", description: "E-mail: invitations to choose a password, deadlines and reminders, the weekly digest" },
  { name: "Import", description: "Questions and model answers in, grades made elsewhere in, redactions" },
  { name: "Assignment", description: "Who grades which response set" },
  { name: "Grading", description: "A grader's own assignments and grades (blinded)" },
  { name: "Escalation", description: "Disagreements sent to a third grader" },
  { name: "Pairwise", description: "Pairwise preference studies: planning comparisons, dealing them, and a grader's blinded comparisons" },
  { name: "Results", description: "Final scores and statistics (unblinded, leads)" },
  { name: "Harm review", description: "Potential-harm flags and their review" },
  { name: "Governance", description: "The stability triage of final sets (accept, review, reject) and the lead's decisions" },
  { name: "Screening", description: "The safety screen of a study's answers before grading" },
  { name: "Exports", description: "Datasets out, and a whole study's archive back in" },
  { name: "Judges", description: "Automated judges whose scores sit beside the clinicians'" },
  { name: "Judge runs", description: "Endpoints that run a judge, and the runs themselves" },
];

export function buildOpenApiDocument() {
  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Clingrade API",
      version: "1",
      description:
        "Blinded expert grading of LLM answers to clinical questions. Authenticate with `Authorization: Bearer <token>`; the same role rules apply as in the web app.",
      // The project publishes no licence of its own yet: the lead engineer confirms this entry.
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: "/" }],
    security: [{ bearerAuth: [] }],
    tags: TAGS,
  });
  // A missing name is caught by tests/integration/openapi-routes.test.ts, not here: the served document must not fail.
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, { operationId?: string }>)) {
      const id = OPERATION_IDS[`${method} ${path}`];
      if (id) op.operationId = id;
    }
  }
  return doc;
}
