/**
 * Golden suite: every case in tests/fixtures/golden/stats-vectors.json (and shared/golden's, when
 * present) is checked within its tolerance.
 * A case whose metric or variant this file cannot dispatch, or whose `expected` has a field it
 * does not know how to check, FAILS (so a newly added case is never silently skipped).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  cliffsDelta,
  cohenKappa,
  cronbachAlpha,
  fleissKappa,
  gwetAC1,
  gwetAC2,
  icc,
  krippendorffAlpha,
  type IccType,
  type KappaWeights,
  type KrippendorffLevel,
  type RatingMatrix,
  type WeightScheme,
} from "@/lib/stats";

interface GoldenCase {
  id: string;
  metric: string;
  variant?: string;
  source: string;
  input: {
    ratings?: RatingMatrix;
    x?: number[];
    y?: number[];
    categories?: number[];
    nan_policy?: string;
  };
  expected: number | Record<string, number | string>;
  tolerance: number;
  tolerances?: Record<string, number>;
  extra?: Record<string, unknown>;
}

/**
 * The vectors live in the repository (tests/fixtures/golden, a copy of shared/golden), so a
 * clone from anywhere runs them. When shared/golden is found too ($CLINGRADE_GOLDEN_DIR, else
 * beside the repository), its cases are checked as well: a case added there, or changed there
 * since the copy was taken, runs under its own name.
 */
function sharedGoldenPath(): string | null {
  const candidates: string[] = [];
  if (process.env.CLINGRADE_GOLDEN_DIR) candidates.push(path.resolve(process.env.CLINGRADE_GOLDEN_DIR, "stats-vectors.json"));
  let dir = import.meta.dirname;
  for (let i = 0; i < 8; i++) {
    candidates.push(path.join(dir, "shared", "golden", "stats-vectors.json"));
    dir = path.dirname(dir);
  }
  candidates.push(path.resolve(process.cwd(), "../shared/golden/stats-vectors.json"));
  return candidates.find((p) => fs.existsSync(p)) ?? null;
}

const read = (file: string): GoldenCase[] => JSON.parse(fs.readFileSync(file, "utf8"));
const repoCases = read(path.resolve(import.meta.dirname, "../../fixtures/golden/stats-vectors.json"));
const sharedFile = sharedGoldenPath();
const known = new Map(repoCases.map((c) => [c.id, JSON.stringify(c)]));
const sharedCases = (sharedFile ? read(sharedFile) : [])
  .filter((c) => known.get(c.id) !== JSON.stringify(c))
  .map((c) => (known.has(c.id) ? { ...c, id: `${c.id} (as changed in shared/golden)` } : c));
const cases: GoldenCase[] = [...repoCases, ...sharedCases];

/** What a dispatcher returns: the computed value of each checkable field. */
type Computed = Record<string, number | string | null | undefined>;

function ratingsOf(c: GoldenCase): RatingMatrix {
  if (!c.input.ratings) throw new Error(`${c.id}: input.ratings missing`);
  return c.input.ratings;
}

function unknownVariant(c: GoldenCase): never {
  throw new Error(`${c.id}: no dispatcher for ${c.metric} variant "${c.variant}"`);
}

const ICC_TYPES: Record<string, IccType> = {
  "1,1": "ICC1",
  "2,1": "ICC2",
  "3,1": "ICC3",
  "1,k": "ICC1k",
  "2,k": "ICC2k",
  "3,k": "ICC3k",
};

const dispatch: Record<string, (c: GoldenCase) => Computed> = {
  cronbach_alpha(c) {
    const policy = c.input.nan_policy ?? (c.variant?.includes("listwise") ? "listwise" : "pairwise");
    if (policy !== "pairwise" && policy !== "listwise") unknownVariant(c);
    const r = cronbachAlpha(ratingsOf(c), { nanPolicy: policy });
    return { value: r.alpha, ci_low: r.ci?.[0], ci_high: r.ci?.[1] };
  },
  icc(c) {
    const m = /^ICC\(([123]),([1k])\)/.exec(c.variant ?? "");
    if (!m) unknownVariant(c);
    const r = icc(ratingsOf(c), { type: ICC_TYPES[`${m[1]},${m[2]}`] });
    return { value: r.icc, ci_low: r.ci?.[0], ci_high: r.ci?.[1], F: r.F, df1: r.df1, df2: r.df2 };
  },
  gwet_ac1(c) {
    if (!/^unweighted/.test(c.variant ?? "")) unknownVariant(c);
    const r = gwetAC1(ratingsOf(c), { categories: c.input.categories });
    return { value: r.coefficient, pa: r.pa, pe: r.pe, ci_low: r.ci?.[0], ci_high: r.ci?.[1] };
  },
  gwet_ac2(c) {
    const scheme = /^(quadratic|linear|identity)\b/.exec(c.variant ?? "")?.[1] as WeightScheme | undefined;
    if (!scheme) unknownVariant(c);
    const r = gwetAC2(ratingsOf(c), { categories: c.input.categories, weights: scheme });
    return { value: r.coefficient, pa: r.pa, pe: r.pe, se: r.se, ci_low: r.ci?.[0], ci_high: r.ci?.[1] };
  },
  fleiss_kappa(c) {
    if (!/^unweighted/.test(c.variant ?? "")) unknownVariant(c);
    const r = fleissKappa(ratingsOf(c), { categories: c.input.categories });
    return { value: r.kappa, pa: r.pa, pe: r.pe };
  },
  cohen_kappa(c) {
    const weights = ({ unweighted: "none", linear: "linear", quadratic: "quadratic" } as Record<string, KappaWeights>)[
      c.variant ?? ""
    ];
    if (!weights) unknownVariant(c);
    return { value: cohenKappa(ratingsOf(c), { weights, categories: c.input.categories }).kappa };
  },
  krippendorff_alpha(c) {
    const level = c.variant as KrippendorffLevel;
    if (!["nominal", "ordinal", "interval", "ratio"].includes(level)) unknownVariant(c);
    return { value: krippendorffAlpha(ratingsOf(c), { level }).alpha };
  },
  cliffs_delta(c) {
    if (!/^x_vs_y/.test(c.variant ?? "")) unknownVariant(c);
    if (!c.input.x || !c.input.y) throw new Error(`${c.id}: input.x / input.y missing`);
    const r = cliffsDelta(c.input.x, c.input.y);
    return { value: r.delta, magnitude: r.magnitude };
  },
};

/** Numeric fields of `extra` that are checked when present (with the case tolerance). */
const EXTRA_NUMERIC: Record<string, string> = { pa: "pa", pe: "pe", F: "F", se_table_path: "se" };
/** Exact (integer) fields of `extra`. */
const EXTRA_EXACT = ["df1", "df2"];

function expectClose(label: string, got: number | string | null | undefined, want: number, tol: number): void {
  expect(typeof got, `${label}: computed value missing (got ${String(got)})`).toBe("number");
  const diff = Math.abs((got as number) - want);
  expect(diff, `${label}: got ${String(got)}, expected ${want} +- ${tol}`).toBeLessThanOrEqual(tol);
}

function sourceLabel(source: string): string {
  const first = source.split(/\s+/)[0] ?? source;
  const [repo, commit] = first.split("@");
  return commit ? `${repo}@${commit.slice(0, 7)}` : first;
}

describe("golden vectors (shared/golden/stats-vectors.json)", () => {
  it("has cases, each with id, metric, source, expected and tolerance", () => {
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) {
      expect(typeof c.id).toBe("string");
      expect(typeof c.metric).toBe("string");
      expect(typeof c.source).toBe("string");
      expect(c.expected).toBeDefined();
      expect(typeof c.tolerance).toBe("number");
    }
  });

  for (const c of cases) {
    it(`${c.id} [${c.metric} / ${c.variant ?? "-"}] from ${sourceLabel(c.source)}`, () => {
      const run = dispatch[c.metric];
      if (!run) throw new Error(`${c.id}: unknown metric "${c.metric}" (add a dispatcher to golden.test.ts)`);
      const got = run(c);
      const tolFor = (field: string): number => c.tolerances?.[field] ?? c.tolerance;

      const expected = typeof c.expected === "number" ? { value: c.expected } : c.expected;
      for (const [field, want] of Object.entries(expected)) {
        if (!(field in got)) throw new Error(`${c.id}: expected field "${field}" is not checked by the dispatcher`);
        if (typeof want === "number") expectClose(`${c.id} ${field}`, got[field], want, tolFor(field));
        else expect(got[field], `${c.id} ${field}`).toBe(want);
      }

      // Supplementary figures recorded with the case.
      const extra = c.extra ?? {};
      for (const [field, key] of Object.entries(EXTRA_NUMERIC)) {
        const want = extra[field];
        if (typeof want === "number") expectClose(`${c.id} extra.${field}`, got[key], want, c.tolerance);
      }
      for (const field of EXTRA_EXACT) {
        if (typeof extra[field] === "number") expect(got[field], `${c.id} extra.${field}`).toBe(extra[field]);
      }
      // pingouin's ICC intervals printed to 2 decimals: within half a unit of the last place.
      const ci2 = extra.ci95_2dp;
      if (Array.isArray(ci2)) {
        expectClose(`${c.id} extra.ci95_2dp[0]`, got.ci_low, ci2[0] as number, 0.005 + 1e-12);
        expectClose(`${c.id} extra.ci95_2dp[1]`, got.ci_high, ci2[1] as number, 0.005 + 1e-12);
      }
    });
  }
});
