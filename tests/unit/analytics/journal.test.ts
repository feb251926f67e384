/**
 * The journal block of the dashboard statistics (lib/analytics/journal.ts): its numbers equal
 * lib/stats computed directly on the same grades, the ICC form follows the design with its
 * reason, and the output fits the API contract.
 */
import { describe, expect, it } from "vitest";
import { StudyStatsSchema } from "@/lib/analytics/contract";
import { assembleStudyStats, type LoadedStudy } from "@/lib/analytics/assemble";
import { journalGraderNames } from "@/lib/analytics/journal-graders";
import { journalAgreementCsv, journalKappaMatrixCsv } from "@/lib/analytics/journal-tables";
import { graderPseudonym } from "@/lib/users/pseudonym";
import { cohenKappa, descriptives, friedmanTest, icc, kendallW, wilcoxonPosthoc } from "@/lib/stats";
import { GRADERS, loadedStudy, SCORE_DIMS, scoreStudy, uuid, type GradedSet, type ScoreForm } from "./loaded-study";

const { study: STUDY, layout: LAYOUT } = scoreStudy(1);
type Form = ScoreForm;

// 10 items x 2 models, two primaries each; grader B drifts from A by a fixed pattern.
const ITEMS = 10;
const formA = (item: number, model: number): Form => SCORE_DIMS.map((_, d) => 1 + ((item * 3 + d + model * 2) % 5)) as Form;
const formB = (item: number, model: number): Form => formA(item, model).map((v, d) => Math.min(5, Math.max(1, v + ((item + d) % 3) - 1))) as Form;

function build(crossed: boolean): LoadedStudy {
  const rows: GradedSet[] = [];
  for (let item = 0; item < ITEMS; item++) {
    for (let model = 0; model < 2; model++) {
      const pair = crossed ? [0, 1] : [(item + model) % 3, (item + model + 1) % 3];
      rows.push({ item, model: `M${model}`, specialty: "Oph", status: "AGREED", forms: [formA(item, model), formB(item, model)].map((form, g) => ({ grader: pair[g], form })) });
    }
  }
  return loadedStudy(1, rows);
}

/** Rows = sets (item-major, model-minor: the order of the loaded sets), columns = graders A, B. */
const pairs = (d: number) => {
  const rows: number[][] = [];
  for (let item = 0; item < ITEMS; item++) for (let model = 0; model < 2; model++) rows.push([formA(item, model)[d], formB(item, model)[d]]);
  return rows;
};
const totals = () => {
  const rows: number[][] = [];
  for (let item = 0; item < ITEMS; item++) {
    for (let model = 0; model < 2; model++) {
      const sum = (f: Form) => f.reduce((s, x) => s + x, 0);
      rows.push([sum(formA(item, model)), sum(formB(item, model))]);
    }
  }
  return rows;
};

describe("journal statistics block", () => {
  const crossed = assembleStudyStats(build(true), { journal: true }, { resamples: 50 });
  const journal = crossed.journal.data!;
  const score = journal.rubrics[0];

  it("fits the API contract and lists every dimension and the total, each with a convention and n", () => {
    expect(() => StudyStatsSchema.parse(crossed)).not.toThrow();
    expect(score.agreement.map((a) => a.key)).toEqual([...SCORE_DIMS, "total"]);
    expect(score.models.map((m) => m.key)).toEqual([...SCORE_DIMS, "total"]);
    for (const a of score.agreement) {
      expect(a.kappa!.ranks.convention).toMatch(/ranks/);
      expect(a.kappa!.scale.convention).toMatch(/declared scale/);
      expect(a.kendallW!.uncorrected.convention).toMatch(/no tie correction/);
      expect(a.krippendorff.convention).toMatch(/bootstrap/);
      expect(a.units).toBe(ITEMS * 2);
    }
  });

  it("crossed graders: two-way ICC(A,k) with the reason; values equal lib/stats on the same grades", () => {
    expect(journal.design).toBe("crossed");
    SCORE_DIMS.forEach((dim, d) => {
      const a = score.agreement.find((x) => x.key === dim)!;
      const rows = pairs(d);
      expect(a.raters).toEqual([GRADERS[0].id, GRADERS[1].id]);
      expect(a.kappa!.ranks.matrix[0][1]).toBeCloseTo(cohenKappa(rows, { weights: "quadratic" }).kappa!, 12);
      expect(a.kappa!.scale.matrix[1][0]).toBeCloseTo(cohenKappa(rows, { weights: "quadratic", convention: "scale", categories: [1, 2, 3, 4, 5] }).kappa!, 12);
      expect(a.kappa!.ranks.pairs[0].n).toBe(ITEMS * 2);
      expect(a.kendallW!.corrected.value).toBeCloseTo(kendallW(rows).w!, 12);
      expect(a.kendallW!.uncorrected.value).toBeCloseTo(kendallW(rows, { tieCorrection: false }).w!, 12);
      expect(a.icc!.type).toBe("ICC2k");
      expect(a.icc!.why).toMatch(/crossed/);
      expect(a.icc!.value).toBeCloseTo(icc(rows, { type: "ICC2k" }).icc!, 12);
    });
    const total = score.agreement.find((x) => x.key === "total")!;
    expect(total.kappa!.ranks.matrix[0][1]).toBeCloseTo(cohenKappa(totals(), { weights: "quadratic" }).kappa!, 12);
    expect(total.icc!.value).toBeCloseTo(icc(totals(), { type: "ICC2k" }).icc!, 12);
  });

  it("graders drawn from a pool: one-way ICC(1,k) and the reason, kappa per pair of graders", () => {
    const pool = assembleStudyStats(build(false), { journal: true }, { resamples: 50 }).journal.data!;
    expect(pool.design).toBe("pool");
    const a = pool.rubrics[0].agreement[0];
    expect(a.icc!.type).toBe("ICC1k");
    expect(a.icc!.why).toMatch(/pool/);
    expect(a.raters).toHaveLength(3);
    expect(a.kappa!.ranks.pairs).toHaveLength(3);
    expect(a.kappa!.ranks.pairs.reduce((s, p) => s + p.n, 0)).toBe(ITEMS * 2);
    // Each pair of graders is compared on the sets they both graded.
    const shared = new Map<string, number>();
    for (let item = 0; item < ITEMS; item++) {
      for (let model = 0; model < 2; model++) {
        const ids = [GRADERS[(item + model) % 3].id, GRADERS[(item + model + 1) % 3].id].sort();
        shared.set(ids.join(), (shared.get(ids.join()) ?? 0) + 1);
      }
    }
    for (const p of a.kappa!.ranks.pairs) expect(p.n, `${p.a} ${p.b}`).toBe(shared.get([p.a, p.b].sort().join()));
  });

  it("the kappa matrices' CSV: every cell, the diagonal's 1 without CI, each other cell with its pair's CI and n", () => {
    const pool = assembleStudyStats(build(false), { journal: true }, { resamples: 50 }).journal.data!.rubrics[0];
    const names = new Map(GRADERS.map((g) => [g.id, g.name]));
    const { header, rows } = journalKappaMatrixCsv(pool, names);
    const col = (name: string) => header.indexOf(name);
    expect(rows).toHaveLength(pool.agreement.length * 9);
    pool.agreement.forEach((a, d) => {
      const m = a.kappa!.ranks;
      a.raters.forEach((r, i) =>
        a.raters.forEach((c, j) => {
          const row = rows[d * 9 + i * 3 + j];
          expect([row[col("key")], row[col("row_rater")], row[col("column_rater")], row[col("kappa")]]).toEqual([a.key, names.get(r), names.get(c), m.matrix[i][j]]);
          const pair = m.pairs.find((p) => [p.a, p.b].sort().join() === [r, c].sort().join());
          if (i === j) expect([row[col("kappa")], row[col("ci_low")], row[col("n")]]).toEqual([1, null, null]);
          else expect([row[col("ci_low")], row[col("ci_high")], row[col("n")]]).toEqual([pair!.ci?.[0] ?? null, pair!.ci?.[1] ?? null, pair!.n]);
        }),
      );
    });
  });

  it("more than 40 graders: no kappa matrix (k(k-1)/2 pairs), a note says why", () => {
    // A third primary per set, and every set graded by its own three graders: 60 graders.
    const loaded = build(false);
    loaded.assignments = loaded.assignments.flatMap((a, i) => (i % 2 === 0 ? [a, { ...a }] : [a]));
    const many = loaded.assignments.map((_, i) => ({ id: uuid(500 + i), name: `G${i}`, active: true, external: false }));
    loaded.graders = many;
    loaded.assignments.forEach((a, i) => (a.graderId = many[i].id));
    const a = assembleStudyStats(loaded, { journal: true }, { resamples: 20 }).journal.data!.rubrics[0].agreement[0];
    expect(a.raters.length).toBeGreaterThan(40);
    expect(a.kappa).toBeNull();
    expect(a.note).toMatch(/pairwise kappas are not listed/);
    expect(a.krippendorff.value).not.toBeNull();
  });

  it("model comparison equals lib/stats on the final scores (mean of the two graders)", () => {
    const finals = totals().map(([a, b]) => (a + b) / 2);
    const matrix = Array.from({ length: ITEMS }, (_, item) => [finals[item * 2], finals[item * 2 + 1]]);
    const total = score.models.find((m) => m.key === "total")!;
    expect(total.descriptives.map((d) => d.model)).toEqual(["M0", "M1"]);
    expect(total.descriptives[1].median).toBeCloseTo(descriptives(matrix.map((r) => r[1])).median!, 12);
    expect(total.friedman.chiSquare).toBeCloseTo(friedmanTest(matrix).chiSquare!, 12);
    expect(total.friedman.n).toBe(ITEMS);
    expect(total.posthoc.pairs[0].p).toBeCloseTo(wilcoxonPosthoc(matrix).pairs[0].p!, 12);
    expect(total.posthoc.pairs[0].pHolm).toBe(total.posthoc.pairs[0].p); // one pair: Holm leaves it
    expect(total.cliffs!.intervalLevel).toBeCloseTo(0.95, 12);
    expect(score.models[0].cliffs).toBeNull();
  });

  it("names graders by their study pseudonym, as every other lead view does: never by name, in the panel or its CSVs", () => {
    const names = journalGraderNames(STUDY.id, journal);
    const raters = [...new Set(score.agreement.flatMap((a) => a.raters))];
    expect(Object.keys(names).sort()).toEqual(raters.sort());
    for (const id of raters) expect(names[id]).toBe(graderPseudonym(STUDY.id, id));
    const map = new Map(Object.entries(names));
    const csv = JSON.stringify([journalKappaMatrixCsv(score, map), journalAgreementCsv(journal, map)]);
    for (const id of raters) expect(csv).toContain(names[id]);
    for (const g of GRADERS) expect(csv).not.toMatch(new RegExp(`"${g.name}[" |]`));
    // Another study: other pseudonyms for the same people (a reader cannot link them across studies).
    expect(journalGraderNames(uuid(999), journal)[raters[0]]).not.toBe(names[raters[0]]);
    expect(journalGraderNames(STUDY.id, null)).toEqual({});
  });

  it("an empty study: null with a reason", () => {
    const s = assembleStudyStats({ study: STUDY, layout: LAYOUT, models: [], sets: [], assignments: [], graders: [] }, { journal: true });
    expect(s.journal.data).toBeNull();
    expect(s.journal.reason).toMatch(/No response sets/);
  });

  it("is computed only on request (its bootstraps cost time the dashboard does not spend)", () => {
    const s = assembleStudyStats(build(true), {}, { resamples: 50 });
    expect(s.journal).toEqual({ data: null, reason: expect.stringMatching(/journal=1/) });
  });
});
