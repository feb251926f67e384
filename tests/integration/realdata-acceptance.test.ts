/**
 * Issue #17's acceptance, from outside: each published study's file imported as it is through
 * POST /grade-imports, then GET /stats?journal=1 gives the study's own published reliability
 * figures to the published digit (published.ts; the same figures from the raw files with
 * lib/stats alone are in tests/unit/stats/realdata.test.ts).
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { POST as gradeImport } from "@/app/api/v1/studies/[id]/grade-imports/route";
import { GET as listSets } from "@/app/api/v1/studies/[id]/sets/route";
import { GET as stats } from "@/app/api/v1/studies/[id]/stats/route";
import { journalAgreementCsv } from "@/lib/analytics/journal-tables";
import type { JournalAgreement } from "@/lib/analytics/types";
import { getDb } from "@/lib/db/client";
import { CHATTOGOVAR_RUBRIC } from "@/lib/demo/data/chattogovar/rubric";
import type { RubricDocument } from "@/lib/rubrics/document";
import { DEFAULT_THRESHOLDS } from "@/lib/rubrics/thresholds";
import { CARDIOLOGY_KAPPA, CARDIOLOGY_W, CHATTOGOVAR } from "../fixtures/realdata/published";
import { CARDIOLOGY_MAPPING, CARDIOLOGY_RUBRIC } from "../fixtures/realdata/rubrics";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

// Response bodies are read field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

/** Within half a unit of the published last digit. */
const published = (actual: number | null | undefined, value: number, where: string) => {
  expect(actual, where).not.toBeNull();
  expect(Math.abs(actual! - value), `${where}: ${actual} vs published ${value}`).toBeLessThanOrEqual(0.0005 + 1e-12);
};

async function importedStudy(rubric: RubricDocument, body: BodyInit, type?: string) {
  const lead = await makeUser("LEAD");
  const study = await getDb().study.create({
    data: { name: rubric.name, slug: `${rubric.key}-${randomBytes(3).toString("hex")}`, rubrics: [rubric], repetitions: 1, thresholds: DEFAULT_THRESHOLDS, createdById: lead.id, members: { create: { userId: lead.id, role: "LEAD" } } },
  });
  const headers: Record<string, string> = type ? { "content-type": type } : {};
  const r = (await call(gradeImport, `/api/v1/studies/${study.id}/grade-imports`, bearer(lead.token, { method: "POST", body, headers }), { id: study.id })) as { status: number; body: Body };
  expect(r.status, JSON.stringify(r.body).slice(0, 500)).toBe(200);
  const journal = async (query = "") => {
    const s = (await call(stats, `/api/v1/studies/${study.id}/stats?journal=1${query}`, bearer(lead.token), { id: study.id })) as { status: number; body: Body };
    expect(s.status).toBe(200);
    expect(s.body.journal.reason).toBeNull();
    return s.body.journal.data.rubrics[0].agreement as JournalAgreement[];
  };
  const raters = new Map((await getDb().user.findMany({ where: { externalStudyId: study.id }, select: { id: true, name: true } })).map((u) => [u.id, u.name]));
  return { journal, raters, studyId: study.id, token: lead.token };
}

describe("the published studies, imported as they are, give their published figures", () => {
  it("cardiology (2_Data.xlsx, wide, 4 sheets): per criterion the 3 pairwise quadratic kappas and Kendall's W", async () => {
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(readFileSync("tests/fixtures/realdata/cardiology/2_Data.xlsx"))]), "2_Data.xlsx");
    form.set("mapping", JSON.stringify(CARDIOLOGY_MAPPING));
    const { journal, raters } = await importedStudy(CARDIOLOGY_RUBRIC, form);
    const agreement = await journal();
    for (const [criterion, kappas] of Object.entries(CARDIOLOGY_KAPPA)) {
      const row = agreement.find((a) => a.target === "dimension" && a.key === criterion.toLowerCase())!;
      expect(row.units).toBe(210);
      const pairs = Object.fromEntries(row.kappa!.ranks.pairs.map((p) => [[raters.get(p.a), raters.get(p.b)].sort().join("-"), p.value]));
      published(pairs["Reviewer1-Reviewer2"], kappas[0], `${criterion} kappa R1-R2`);
      published(pairs["Reviewer1-Reviewer3"], kappas[1], `${criterion} kappa R1-R3`);
      published(pairs["Reviewer2-Reviewer3"], kappas[2], `${criterion} kappa R2-R3`);
      published(row.kendallW!.uncorrected.value, CARDIOLOGY_W[criterion], `${criterion} Kendall's W`);
    }
    // The dashboard's CSV of the same block: one row per figure, graders by name.
    const csv = journalAgreementCsv({ note: "", design: "crossed", rubrics: [{ rubric: "cardiology", agreement, models: [] }] }, raters);
    const accuracy = csv.rows.filter((r) => r[2] === "accuracy" && r[4] === "kappa (quadratic)" && String(r[5]).includes("ranks"));
    expect(accuracy.map((r) => String(r[6]).split(" | ").sort().join("-")).sort()).toEqual(["Reviewer1-Reviewer2", "Reviewer1-Reviewer3", "Reviewer2-Reviewer3"]);
    published(accuracy.find((r) => String(r[6]).split(" | ").sort().join("-") === "Reviewer1-Reviewer2")![7] as number, CARDIOLOGY_KAPPA.Accuracy[0], "CSV kappa R1-R2");
  }, 120_000);

  it("chattogovar (ratings_long.csv as a text/csv body): ICC(2,1), ICC(2,k) and quadratic kappa of the totals, pooled and per system", async () => {
    const { journal, studyId, token } = await importedStudy(CHATTOGOVAR_RUBRIC, readFileSync("tests/fixtures/realdata/chattogovar/ratings_long.csv"), "text/csv");
    // Final as imported: every answer takes the two raters' mean as its final scores.
    const sets = (await call(listSets, `/api/v1/studies/${studyId}/sets?pageSize=500`, bearer(token), { id: studyId })) as { body: Body };
    expect(sets.body.sets.filter((s: Body) => s.status === "agreed")).toHaveLength(450);
    for (const [group, expected] of Object.entries(CHATTOGOVAR)) {
      const agreement = await journal(group === "pooled" ? "" : `&models=${encodeURIComponent(group)}`);
      const total = agreement.find((a) => a.target === "total" && a.key === "total")!;
      expect(total.units, group).toBe(expected.n);
      published(total.kappa!.ranks.pairs[0].value, expected.kappa, `${group} kappa`);
      expect(total.icc, group).not.toBeNull();
      const icc = total.icc!;
      // Two raters on every answer: the crossed design's two-way random ICC, both forms.
      expect([icc.type, icc.single.type], group).toEqual(["ICC2k", "ICC2"]);
      published(icc.single.value, expected.icc21, `${group} ICC(2,1)`);
      published(icc.value, expected.icc2k, `${group} ICC(2,k)`);
    }
  }, 120_000);
});
