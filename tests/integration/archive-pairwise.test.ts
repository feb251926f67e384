import { describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { POST as importArchiveRoute } from "@/app/api/v1/study-archives/route";
import { computeStudyStats } from "@/lib/analytics/study-stats";
import { disconnectDb, getDb } from "@/lib/db/client";
import { closeExportPools } from "@/lib/exports/pool";
import { dealComparisons } from "@/lib/pairwise/assign-service";
import { assignComparisonEscalationByHand } from "@/lib/pairwise/escalation-queries";
import { savePreferences } from "@/lib/pairwise/grading";
import { planStudyComparisons } from "@/lib/pairwise/plan-service";
import { createMigratedDatabase, useIsolatedDatabase } from "./helpers/db";
import { bearer, makeUser } from "./helpers/fixtures";
import { makePairwiseStudy } from "./helpers/pairwise-fixture";

useIsolatedDatabase();

async function exported(token: string, studyId: string): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await exportRoute(new Request(`http://localhost/api/v1/studies/${studyId}/export?dataset=study`, bearer(token)), { params: Promise.resolve({ id: studyId }) });
  expect(res.status, await res.clone().text()).toBe(200);
  return JSON.parse(await res.text());
}

/** The fields an import and re-export may change (lib/exports/archive.ts). */
function modIdsAndTimestamps(doc: Record<string, any>) { // eslint-disable-line @typescript-eslint/no-explicit-any
  const d = structuredClone(doc);
  delete d.exportedAt;
  delete d.source;
  delete d.study.createdAt;
  delete d.study.updatedAt;
  for (const g of d.graders) delete g.pseudonym;
  return d;
}

describe("a pairwise study in the study archive", () => {
  it("round-trips its design, comparisons, preferences and escalations into an empty database, with the same pairwise statistics", async () => {
    const p = await makePairwiseStudy({ rubrics: ["clever_preference"], items: 8, models: 3, n: 2, k: 2, graders: 4 });
    await planStudyComparisons(p.study.id, { design: { kind: "all_pairs" }, seed: "archive" }, p.lead.id);
    await dealComparisons(p.study.id, { seed: "archive" }, p.lead.id);
    const db = getDb();
    const rubric = p.study.rubrics as { key: string; dimensions: { key: string; scale: { kind: string } }[] }[];
    const axes = rubric.flatMap((r) => r.dimensions.filter((d) => d.scale.kind === "preference").map((d) => ({ rubric: r.key, axis: d.key })));
    // Every grader submits every comparison dealt to them; grader 1 prefers B on the first axis where the others prefer A (an escalation).
    const choice = ["a", "tie", "b"] as const;
    for (const [gi, g] of p.graders.entries()) {
      const mine = await db.comparisonAssignment.findMany({ where: { graderId: g.id, studyId: p.study.id }, orderBy: { position: "asc" } });
      for (const [k, a] of mine.entries()) {
        const preferences = axes.map((x, j) => ({ ...x, choice: gi === 0 && j === 0 ? ("b" as const) : j === 0 ? ("a" as const) : choice[(k + j + gi) % 3] }));
        await savePreferences(g.id, a.id, { preferences, harm: k === 0 ? { a: { flag: true, comment: "doubles the dose" } } : undefined, elapsedMs: 1000 + k }, true);
      }
    }
    const escalation = await db.comparisonEscalation.findFirstOrThrow({ where: { comparison: { studyId: p.study.id } }, include: { comparison: { include: { assignments: true } } } });
    // An adjudicator (dealt at once when one is free, else by hand).
    const outsider = p.graders.find((g) => !escalation.comparison.assignments.some((a) => a.graderId === g.id));
    if (!escalation.adjudicatorAssignmentId && outsider) await assignComparisonEscalationByHand(escalation.id, outsider.id, p.lead.id);

    const original = await exported(p.lead.token, p.study.id);
    expect(original.study).toMatchObject({ design: "PAIRWISE", pairSeed: "archive", tieDisagrees: false, pairDesign: { kind: "all_pairs" } });
    expect(original.comparisons.length).toBeGreaterThan(20);
    const escalated = original.comparisons.filter((c: { escalation: unknown }) => c.escalation);
    expect(escalated.some((c: { escalation: { adjudicator: string | null } }) => c.escalation.adjudicator !== null)).toBe(true);
    expect(JSON.stringify(original.comparisons)).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    const stats = (await computeStudyStats(p.study.id))!.pairwise!;
    expect(stats.data?.axes.length).toBe(axes.length + 1);

    const target = await createMigratedDatabase();
    const home = process.env.DATABASE_URL;
    await disconnectDb();
    process.env.DATABASE_URL = target.url;
    try {
      const importer = await makeUser("LEAD", "importer");
      const post = (body: unknown) =>
        importArchiveRoute(
          new Request("http://localhost/api/v1/study-archives", bearer(importer.token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })),
          { params: Promise.resolve({}) },
        );
      const res = await post(original);
      expect(res.status, await res.clone().text()).toBe(201);
      const { id } = (await res.json()) as { id: string };
      const again = await exported(importer.token, id);
      expect(modIdsAndTimestamps(again)).toEqual(modIdsAndTimestamps(original));
      expect((await computeStudyStats(id))!.pairwise).toEqual(stats);

      // all or nothing: a comparison naming an unknown grader, or an axis the rubric lacks, is refused whole
      const studies = await getDb().study.count();
      const broken = structuredClone(original);
      broken.comparisons[0].assignments[0].grader = "G99";
      broken.comparisons[1].assignments[0].preferences[0].axis = "nonsense";
      broken.comparisons[2].left.repetition = 9;
      const bad = await post(broken);
      expect(bad.status).toBe(422);
      const problems = ((await bad.json()) as { details: { problems: { path: string }[] } }).details.problems.map((x) => x.path);
      expect(problems).toEqual(expect.arrayContaining(["comparisons[0].assignments[0].grader", "comparisons[1].assignments[0].preferences[0]", "comparisons[2].left.repetition"]));
      expect(await getDb().study.count()).toBe(studies);

      // an archive written before comparisons were archived (no design, no section) still imports, as a scoring study
      const { comparisons: _c, ...older } = original;
      void _c;
      const { design: _d, pairDesign: _pd, pairSeed: _ps, tieDisagrees: _t, ...olderStudy } = older.study;
      void [_d, _pd, _ps, _t];
      const old = await post({ ...older, study: olderStudy });
      expect(old.status, await old.clone().text()).toBe(201);
      const oldId = ((await old.json()) as { id: string }).id;
      expect(await getDb().study.findUniqueOrThrow({ where: { id: oldId }, select: { design: true } })).toEqual({ design: "SCORING" });
    } finally {
      await disconnectDb();
      await closeExportPools();
      process.env.DATABASE_URL = home;
      await target.drop();
    }
  }, 180_000);
});
