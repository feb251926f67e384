/**
 * Acceptance on real data (issue #17): the two published studies in tests/fixtures/realdata,
 * read from their raw files as published, reproduce each study's own reliability figures to the
 * published digit with the conventions their analysis scripts used. Sources are in
 * tests/fixtures/realdata/README.md and beside each figure below.
 */
import fs from "node:fs";
import path from "node:path";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { cohenKappa, icc, kendallW, pairwiseCohenKappa } from "@/lib/stats";
import { readXlsx } from "../../helpers/xlsx-reader";
import { CARDIOLOGY_KAPPA, CARDIOLOGY_W, CHATTOGOVAR } from "../../fixtures/realdata/published";

const fixtures = path.join(import.meta.dirname, "../../fixtures/realdata");

/** Within half a unit of the published last digit (`digits` decimals). */
function expectPublished(actual: number | null, published: number, digits: number, where: string): void {
  expect(actual, where).not.toBeNull();
  expect(Math.abs(actual! - published), `${where}: ${actual} vs published ${published}`).toBeLessThanOrEqual(0.5 * 10 ** -digits + 1e-12);
}

// ------------------------------------------------------------------------------- cardiology
// micheledpierri/llm_cardiology_eval, scripts/2_reliability_analysis.py: per criterion (sheet),
// subjects = Request + "_" + Model, rows with a missing score dropped, then
// sklearn cohen_kappa_score(weights="quadratic") for each reviewer pair (no `labels`: weights on
// the ranks of the labels observed) and the "classical" Kendall's W 12S/(m^2(n^3-n)) on average
// ranks without tie correction. Published: tables/reliability_kappa.csv (lines 2-13) and
// tables/reliability_kendall.csv (lines 2-5), 3 decimals.

/** Requests 51-70 appear as "1_1".."1_20" in some sheets: the same request 50 + k. */
function requestNumber(cell: unknown): number {
  const s = String(cell).trim();
  const alias = /^1_(\d+)$/.exec(s);
  if (alias) return 50 + Number(alias[1]);
  if (!/^\d+$/.test(s)) throw new Error(`unexpected request label ${s}`);
  return Number(s);
}

const WORKBOOK = await readXlsx(path.join(fixtures, "cardiology/2_Data.xlsx"));

function cardiologySheets(): Map<string, Map<string, (number | null)[]>> {
  const out = new Map<string, Map<string, (number | null)[]>>();
  for (const [sheet, rows] of WORKBOOK) {
    const header = rows[0].map(String);
    const col = (name: string) => header.indexOf(name);
    const reviewers = ["Reviewer1", "Reviewer2", "Reviewer3"].map(col);
    const byAnswer = new Map<string, (number | null)[]>();
    for (const row of rows.slice(1)) {
      if (row.every((c) => c === null)) continue;
      const key = `${requestNumber(row[col("Request")])}|${String(row[col("Model")])}`;
      if (byAnswer.has(key)) throw new Error(`${sheet}: answer ${key} twice`);
      byAnswer.set(key, reviewers.map((j) => (typeof row[j] === "number" ? (row[j] as number) : null)));
    }
    out.set(sheet, byAnswer);
  }
  return out;
}

describe("cardiology study (2_Data.xlsx): pairwise quadratic kappa and Kendall's W", () => {
  const sheets = cardiologySheets();
  // One order of answers for every sheet: rows are matched by (request, model), not position.
  const keys = [...sheets.get("Accuracy")!.keys()].sort();

  it("has four criteria of the same 210 answers (70 requests x 3 models) once the 1_k labels are mapped", () => {
    expect([...sheets.keys()]).toEqual(["Accuracy", "Completeness", "Clarity", "Coherence"]);
    for (const answers of sheets.values()) expect([...answers.keys()].sort()).toEqual(keys);
    expect(keys).toHaveLength(210);
    expect(new Set(keys.map((k) => k.split("|")[0])).size).toBe(70);
  });

  it.each(Object.keys(CARDIOLOGY_KAPPA))("%s: the three published pairwise kappas and W", (criterion) => {
    const answers = sheets.get(criterion)!;
    const rows = keys.map((k) => answers.get(k)!).filter((r) => r.every((x) => x !== null));
    expect(rows).toHaveLength(210);
    const pairwise = pairwiseCohenKappa(rows, { weights: "quadratic", convention: "ranks" });
    expect(pairwise.pairs.map((p) => [p.a, p.b])).toEqual([[0, 1], [0, 2], [1, 2]]);
    pairwise.pairs.forEach((p, i) => expectPublished(p.kappa, CARDIOLOGY_KAPPA[criterion][i], 3, `${criterion} pair ${p.a}-${p.b}`));
    const w = kendallW(rows, { tieCorrection: false });
    expectPublished(w.w, CARDIOLOGY_W[criterion], 3, `${criterion} W`);
    expect(w.n).toBe(210);
    expect(w.raters).toBe(3);
  });
});

// ------------------------------------------------------------------------------ chattogovar
// mitsuhashi/chattogovar, evaluation/tables/table_s4_supplement_to_table4.md (lines 7-10),
// written by src/stats/table_icc.py (commit deb10c5) from the two raters' totals (0-50):
// ICC(2,1) two-way random absolute agreement, ICC(2,2) = ICC(2,k) (Spearman-Brown of ICC(2,1),
// identical to McGraw-Wong A,k), and quadratic kappa on "ordered unique categories from pooled
// observed values": weights (i - j)^2 on the RANKS of the totals observed (sklearn's
// convention). The older src/stats/calc_icc_kappa.py weights the integer range min..max
// (the declared-scale convention) and would give 0.685 / 0.219 / 0.395 / 0.491, not the table.

interface LongRow {
  item_id: string;
  system: string;
  rater: string;
  criterion: string;
  score: string;
}

function chattogovarTotals(): Map<string, [number | null, number | null]> {
  const csv = fs.readFileSync(path.join(fixtures, "chattogovar/ratings_long.csv"), "utf8");
  const parsed = Papa.parse<LongRow>(csv, { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  // The file carries each rater's "Total" row (the published <System>_Total) beside the five
  // criteria; the test takes the Total and checks it is their sum.
  const sums = new Map<string, { sum: number; total: number | null; criteria: Set<string> }>();
  for (const r of parsed.data) {
    const key = `${r.item_id}|${r.system}|${r.rater}`;
    const s = sums.get(key) ?? { sum: 0, total: null, criteria: new Set<string>() };
    const score = Number(r.score);
    if (!Number.isInteger(score)) throw new Error(`non-integer score ${r.score} at ${key}`);
    if (r.criterion === "Total") s.total = score;
    else {
      s.sum += score;
      s.criteria.add(r.criterion);
    }
    sums.set(key, s);
  }
  const pairs = new Map<string, [number | null, number | null]>();
  for (const [key, s] of sums) {
    expect(s.criteria.size, key).toBe(5);
    expect(s.total, key).toBe(s.sum);
    const [item, system, rater] = key.split("|");
    const answer = `${item}|${system}`;
    const pair = pairs.get(answer) ?? [null, null];
    pair[rater === "primary" ? 0 : 1] = s.total;
    pairs.set(answer, pair);
  }
  return pairs;
}

describe("chattogovar study (ratings_long.csv): agreement of the two raters' totals", () => {
  const totals = chattogovarTotals();
  const rowsFor = (group: string) =>
    [...totals.entries()].filter(([k]) => group === "pooled" || k.split("|")[1] === group).map(([, v]) => v);

  it.each(Object.keys(CHATTOGOVAR))("%s: published ICC(2,1), ICC(2,k) and quadratic kappa", (group) => {
    const expected = CHATTOGOVAR[group];
    const rows = rowsFor(group);
    expect(rows).toHaveLength(expected.n);
    const a1 = icc(rows, { type: "ICC2" });
    const ak = icc(rows, { type: "ICC2k" });
    expect(a1.n).toBe(expected.n);
    expectPublished(a1.icc, expected.icc21, 3, `${group} ICC(2,1)`);
    expectPublished(ak.icc, expected.icc2k, 3, `${group} ICC(2,k)`);
    const kappa = cohenKappa(rows, { weights: "quadratic", convention: "ranks" });
    expectPublished(kappa.kappa, expected.kappa, 3, `${group} kappa`);
  });

  it("the convention matters: distances on the 0-50 scale would not give the published kappa", () => {
    const differs = Object.keys(CHATTOGOVAR).some((group) => {
      const k = cohenKappa(rowsFor(group), { weights: "quadratic", convention: "scale" }).kappa!;
      return Math.abs(k - CHATTOGOVAR[group].kappa) > 0.0005;
    });
    expect(differs).toBe(true);
  });
});
