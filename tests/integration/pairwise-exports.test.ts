import { describe, expect, it } from "vitest";
import { POST as postSubmit } from "@/app/api/v1/comparison-assignments/[id]/submit/route";
import { GET as exportStudy } from "@/app/api/v1/studies/[id]/export/route";
import { POST as dealRoute } from "@/app/api/v1/studies/[id]/comparison-assignments/route";
import { POST as planPost } from "@/app/api/v1/studies/[id]/comparisons/route";
import { getDb } from "@/lib/db/client";
import { graderPseudonym } from "@/lib/users/pseudonym";
import { bearer, call } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makePairwiseStudy } from "./helpers/pairwise-fixture";

useIsolatedDatabase();
const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body) });

/** Minimal RFC 4180 reader for the export's own output. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted && ch === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && ch === '"') {
      quoted = false;
    } else if (quoted) {
      cell += ch;
    } else if (ch === '"') {
      quoted = true;
    } else if (ch === "," || ch === "\n") {
      row.push(cell);
      cell = "";
      if (ch === "\n") {
        rows.push(row);
        row = [];
      }
    } else {
      cell += ch;
    }
  }
  return rows;
}

describe("the comparisons export", () => {
  it("writes one row per grader and axis, the choice as left/right/tie and as the model's name, in CSV and JSON", async () => {
    const f = await makePairwiseStudy({ rubrics: ["overall_preference"], items: 1, models: 2, graders: 2, n: 2 });
    await call(planPost, "/x", json(f.lead.token, "POST", { design: { kind: "all_pairs" }, seed: "export" }), { id: f.study.id });
    await call(dealRoute, "/x", json(f.lead.token, "POST", {}), { id: f.study.id });
    const c = await getDb().comparison.findFirstOrThrow({ where: { studyId: f.study.id }, include: { leftSet: { include: { model: true } }, rightSet: { include: { model: true } } } });
    const [p1, p2] = await getDb().comparisonAssignment.findMany({ where: { comparisonId: c.id }, orderBy: { id: "asc" } });
    const tokenOf = (id: string) => f.graders.find((g) => g.id === id)!.token;
    const r1 = await call(postSubmit, "/x", json(tokenOf(p1.graderId), "POST", { preferences: [{ rubric: "overall_preference", axis: "overall", choice: "a", strength: "clearly", comment: "=HYPERLINK(1)" }] }), { id: p1.id });
    expect(r1.status, JSON.stringify(r1.body)).toBe(200);
    await call(postSubmit, "/x", json(tokenOf(p2.graderId), "POST", { preferences: [{ rubric: "overall_preference", axis: "overall", choice: "tie" }], harm: { b: { flag: true, comment: "unsafe" } } }), { id: p2.id });

    const csv = await call(exportStudy, `/api/v1/studies/${f.study.id}/export?dataset=comparisons&format=csv`, bearer(f.lead.token), { id: f.study.id });
    expect(csv.status).toBe(200);
    const [header, ...lines] = parseCsv(String(csv.body));
    expect(header.slice(0, 7)).toEqual(["comparison_id", "item_id", "question", "model_left", "model_right", "repetition_left", "repetition_right"]);
    const rows = lines.map((l) => Object.fromEntries(header.map((h, i) => [h, l[i]])));
    expect(rows).toHaveLength(2);
    const left = c.leftSet.model.name;
    const right = c.rightSet.model.name;
    const byGrader = new Map(rows.map((r) => [r.grader, r]));
    const first = byGrader.get(graderPseudonym(f.study.id, p1.graderId))!;
    const second = byGrader.get(graderPseudonym(f.study.id, p2.graderId))!;
    expect(first).toMatchObject({
      comparison_id: c.id,
      item_id: "Q1",
      model_left: left,
      model_right: right,
      repetition_left: String(c.leftRepetition),
      repetition_right: String(c.rightRepetition),
      role: "primary",
      assignment_status: "submitted",
      rubric: "overall_preference",
      axis: "overall",
      choice: "left",
      choice_model: left,
      strength: "clearly",
      // The formula guard: a comment that starts a formula is written as text.
      comment: "'=HYPERLINK(1)",
      grader_name: "",
    });
    expect(second).toMatchObject({ choice: "tie", choice_model: "tie", strength: "", harm_right: "true", harm_right_comment: "unsafe", harm_left: "false" });
    expect(String(csv.body)).not.toContain(f.graders[0].name + ",");

    const asJson = await call(exportStudy, `/api/v1/studies/${f.study.id}/export?dataset=comparisons&format=json&identities=1`, bearer(f.lead.token), { id: f.study.id });
    expect(asJson.status).toBe(200);
    const items = asJson.body as unknown as Record<string, unknown>[];
    expect(items).toHaveLength(2);
    const j = items.find((r) => r.choice === "left")!;
    expect(j).toMatchObject({ model_left: left, choice_model: left, repetition_left: c.leftRepetition, comment: "=HYPERLINK(1)", grader_name: f.graders.find((g) => g.id === p1.graderId)!.name });
  });
});
