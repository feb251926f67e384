import { describe, expect, it } from "vitest";
import { GET as templates } from "@/app/api/v1/rubric-templates/route";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { parseRubricDocument } from "@/lib/rubrics/document";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

describe("GET /api/v1/rubric-templates", () => {
  it("lists every template with its citation and a valid rubric document", async () => {
    const lead = await makeUser("LEAD");
    const r = await call(templates, "/api/v1/rubric-templates", bearer(lead.token));
    expect(r.status).toBe(200);
    const list = r.body.templates as { key: string; citation: string; rubric: unknown }[];
    expect(list.map((t) => t.key)).toEqual(["score", "safe_llm", "discern", "pemat_p", "clear", "medpalm_axes", "likert_criteria", "healthbench_criteria", "clever_preference", "medpalm_pairwise", "overall_preference"]);
    for (const t of list) {
      expect(t.citation.length, t.key).toBeGreaterThan(20);
      expect(parseRubricDocument(t.rubric), t.key).toMatchObject({ ok: true });
    }
  });

  it("is for leads and admins: a grader gets 403", async () => {
    const grader = await makeUser("GRADER");
    expect((await call(templates, "/x", bearer(grader.token))).status).toBe(403);
  });

  it("publishes the rubric document's JSON Schema in the OpenAPI document", () => {
    const schemas = buildOpenApiDocument().components?.schemas as Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
    const doc = schemas.RubricDocument;
    expect(Object.keys(doc.properties ?? {})).toEqual(expect.arrayContaining(["key", "name", "version", "source", "instructions", "dimensions", "totals", "headline"]));
    expect(doc.required).toEqual(expect.arrayContaining(["key", "name", "version", "dimensions", "totals"]));
  });
});
