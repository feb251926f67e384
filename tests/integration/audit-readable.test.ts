import { describe, expect, it } from "vitest";
import { assignGraders } from "@/lib/assignment/service";
import { auditQuerySchema, listAuditEvents } from "@/lib/audit/queries";
import { addGrader } from "@/lib/graders/service";
import { useIsolatedDatabase } from "./helpers/db";
import { makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

describe("the study's audit page", () => {
  it("names who and what each event is about, and shows before -> after without raw ids", async () => {
    const f = await makeGradableStudy({ items: 1, graders: 2 });
    await addGrader({ id: f.lead.id }, f.study.id, { email: "named.grader@test.clingrade.org", name: "Dr Named Grader", specialties: ["Cardiology"] });
    await assignGraders(f.study.id, { seed: "audit" }, f.lead.id);
    const page = await listAuditEvents(f.study.id, auditQuerySchema.parse({}));
    const add = page.rows.find((r) => r.action === "study.grader.add")!;
    expect(add.entityLabel).toBe("Dr Named Grader");
    expect(add.changes).toContainEqual({ field: "user", before: null, after: "Dr Named Grader" });
    expect(add.changes).toContainEqual({ field: "specialties", before: null, after: "Cardiology" });
    const text = JSON.stringify(page.rows.map((r) => [r.entityLabel, r.changes]));
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
  });
});
