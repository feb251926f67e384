import { describe, expect, it } from "vitest";
import { describeChanges, uuidsIn } from "@/lib/audit/describe";

const ANA = "0b5c1f1e-6a1d-4c6e-9a55-7d7f9c1e2a10";

describe("an audit event, readable", () => {
  it("shows only what changed, before -> after, ids by name", () => {
    const names = new Map([[ANA, "Dr Ana Ruiz"]]);
    expect(describeChanges({ name: "Old", role: "LEAD" }, { name: "New", role: "LEAD" }, names)).toEqual([{ field: "name", before: "Old", after: "New" }]);
    expect(describeChanges(null, { userId: ANA, active: true, specialties: ["Cardiology", "Medication"] }, names)).toEqual([
      { field: "user", before: null, after: "Dr Ana Ruiz" },
      { field: "active", before: null, after: "yes" },
      { field: "specialties", before: null, after: "Cardiology, Medication" },
    ]);
    // A grade revision: cells by name, the unchanged harm flag left out.
    expect(
      describeChanges(
        { scores: [{ cell: "SCORE/safety/1", score: 2, comment: null }], harm: { flag: false, comment: null } },
        { scores: [{ cell: "SCORE/safety/1", score: 4, comment: "better" }], harm: { flag: false, comment: null } },
        names,
      ),
    ).toEqual([
      { field: "scores · SCORE/safety/1 · score", before: "2", after: "4" },
      { field: "scores · SCORE/safety/1 · comment", before: "—", after: "better" },
    ]);
    // An unknown id is shortened, never shown whole.
    expect(describeChanges(null, { graderId: "11111111-2222-4333-8444-555555555555" }, names)).toEqual([{ field: "grader", before: null, after: "11111111…" }]);
    expect([...uuidsIn({ a: [ANA.toUpperCase(), { b: "x" }] })]).toEqual([ANA]);
  });
});
