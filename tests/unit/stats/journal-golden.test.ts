/**
 * Journal statistics (issue #17) against tests/fixtures/golden/journal-vectors.json, produced by
 * scripts/golden/journal_vectors.py with scikit-learn, statsmodels, scipy, pandas and R
 * (psych, stats). Every case is dispatched; an unknown metric or expected field FAILS.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  cohenKappa,
  descriptives,
  friedmanTest,
  kendallW,
  pAdjust,
  wilcoxonSignedRank,
  type KappaConvention,
  type KappaWeights,
  type PAdjustMethod,
} from "@/lib/stats";

interface Case {
  id: string;
  metric: string;
  variant?: string;
  source: string;
  input: Record<string, unknown>;
  expected: Record<string, number | null | (number | null)[]>;
  tolerance: number;
}

const cases: Case[] = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, "../../fixtures/golden/journal-vectors.json"), "utf8"),
);

function compute(c: Case): Record<string, unknown> {
  const i = c.input as Record<string, never>;
  switch (c.metric) {
    case "cohen_kappa": {
      const r = cohenKappa(i.ratings, {
        weights: i.weights as KappaWeights,
        convention: i.convention as KappaConvention,
        categories: i.categories,
      });
      return { value: r.kappa, se: r.se, ci_low: r.ci?.[0], ci_high: r.ci?.[1] };
    }
    case "kendall_w": {
      const r = kendallW(i.ratings, { tieCorrection: i.tieCorrection });
      return { value: r.w, chi_square: r.chiSquare, df: r.df, p: r.p };
    }
    case "friedman": {
      const r = friedmanTest(i.ratings);
      return { chi_square: r.chiSquare, p: r.p, df: r.df };
    }
    case "wilcoxon": {
      const r = wilcoxonSignedRank(i.x, i.y);
      return { statistic: r.statistic, p: r.p, min_statistic: r.minStatistic };
    }
    case "p_adjust":
      return { values: pAdjust(i.p, c.variant as PAdjustMethod) };
    case "descriptives": {
      const r = descriptives(i.x);
      return { n: r.n, mean: r.mean, sd: r.sd, median: r.median, q1: r.q1, q3: r.q3, iqr: r.iqr };
    }
    default:
      throw new Error(`no dispatch for metric ${c.metric}`);
  }
}

function close(actual: unknown, expected: number | null, tol: number, where: string): void {
  if (expected === null) {
    expect(actual ?? null, where).toBeNull();
    return;
  }
  expect(typeof actual, where).toBe("number");
  const a = actual as number;
  // Relative for tiny p values, absolute otherwise.
  expect(Math.abs(a - expected), `${where}: ${a} vs ${expected}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(expected)));
}

describe("journal statistics match their reference packages", () => {
  it("has cases for every metric", () => {
    const metrics = new Set(cases.map((c) => c.metric));
    for (const m of ["cohen_kappa", "kendall_w", "friedman", "wilcoxon", "p_adjust", "descriptives"]) expect(metrics.has(m), m).toBe(true);
  });
  it.each(cases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    const actual = compute(c);
    for (const [field, expected] of Object.entries(c.expected)) {
      expect(field in actual, `${c.id}: unknown expected field ${field}`).toBe(true);
      if (Array.isArray(expected)) {
        const got = actual[field] as (number | null)[];
        expect(got.length).toBe(expected.length);
        expected.forEach((e, j) => close(got[j], e, c.tolerance, `${c.id}.${field}[${j}]`));
      } else {
        close(actual[field], expected, c.tolerance, `${c.id}.${field}`);
      }
    }
  });
});
