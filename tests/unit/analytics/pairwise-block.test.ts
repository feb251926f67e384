import { describe, expect, it } from "vitest";
import { PairwiseBlockSchema } from "@/lib/analytics/pairwise-contract";
import { derivedPairwiseBlock, PAIRWISE_WORKER_MIN, runAnalysis } from "@/lib/analytics/pairwise";
import { analysePreferences, type PreferenceObservation } from "@/lib/stats/pairwise";
import type { Measure } from "@/lib/results/measures";
import type { SetResult } from "@/lib/results/sets";
import { waitingSpares } from "@/lib/workers/spare";

const MEASURE: Measure = { rubric: "own", key: "total", kind: "total", label: "Total", min: 0, max: 10 };

/** A final set of question q by model m with headline total t. */
const set = (q: number, m: string, t: number): SetResult =>
  ({ id: `${q}${m}`, itemId: `q${q}`, externalId: `Q${q}`, specialty: "S", model: { id: m, name: m, version: "1" }, status: "AGREED", graders: 2, finalScores: {}, totals: { own: { headline: t } }, bands: {} }) as unknown as SetResult;

describe("a scoring study's preferences derived from final scores", () => {
  it("counts the higher-scored answer of each pair as preferred, equal scores as ties, and fits the contract", async () => {
    // A beats B on 3 questions, ties on 1, loses on 1; C loses to both everywhere.
    const totals: [number, number, number][] = [[5, 3, 1], [6, 2, 0], [7, 4, 2], [4, 4, 1], [2, 6, 0]];
    const finals = totals.flatMap(([a, b, c], q) => [set(q, "A", a), set(q, "B", b), set(q, "C", c)]);
    const block = await derivedPairwiseBlock(finals, [MEASURE], { replicates: 50, seed: 1 });
    expect(block.reason).toBeNull();
    const data = PairwiseBlockSchema.parse(block.data);
    expect(data.source).toBe("scores");
    expect(data.axes).toHaveLength(1);
    const axis = data.axes[0];
    expect(axis.label).toBe("Total");
    expect(axis.agreement).toBeNull();
    const ab = axis.pairs.find((p) => p.a === "A" && p.b === "B")!;
    expect([ab.wins, ab.ties, ab.losses]).toEqual([3, 1, 1]);
    expect(ab.relativePreference).toBeCloseTo(2, 12);
    expect(axis.pairs.find((p) => p.a === "A" && p.b === "C")).toMatchObject({ wins: 5, ties: 0, losses: 0 });
    expect(axis.strengths.model).toBe("davidson");
  });

  it("says why with fewer than two models", async () => {
    const block = await derivedPairwiseBlock([set(1, "A", 3)], [MEASURE]);
    expect(block).toEqual({ data: null, reason: "preferences are derived from final scores of two or more models" });
  });
});

describe("the analysis in worker threads", () => {
  it("gives exactly what analysePreferences gives on the same rows, the bootstraps in a worker thread", async () => {
    const rows: PreferenceObservation[] = [];
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let q = 0; q < 220; q++)
      for (const [l, r] of [["A", "B"], ["B", "C"], ["C", "A"]])
        for (const axis of ["x", "y"])
          for (const grader of ["g1", "g2"]) {
            const u = rnd();
            rows.push({ comparison: `${q}${l}${r}`, question: `q${q}`, axis, grader, leftModel: l, rightModel: r, leftLength: 10 + (q % 7), rightLength: 12, choice: u < 0.45 ? "left" : u < 0.6 ? "tie" : "right", primary: true });
          }
    const options = { replicates: 1000, seed: 3, level: 0.95 };
    expect(rows.length * options.replicates).toBeGreaterThanOrEqual(PAIRWISE_WORKER_MIN);
    const threaded = await runAnalysis(rows, options);
    const expected = JSON.parse(JSON.stringify(analysePreferences(rows, options)));
    expect(threaded).toEqual(expected);
    expect(threaded.axes.map((a) => a.axis)).toEqual(["x", "y", null]);

    // The job's thread is stopped and a spare waits for the next one, its code warmed up on a made-up study: the
    // next analysis runs there and gives the same figures.
    const deadline = Date.now() + 20_000;
    while (!waitingSpares().get("pairwise-stats")) {
      if (Date.now() > deadline) throw new Error("no waiting pairwise-stats thread");
      await new Promise((r) => setTimeout(r, 50));
    }
    const spare = waitingSpares().get("pairwise-stats")!;
    const served = new Promise((resolve) => spare.once("exit", resolve));
    expect(await runAnalysis(rows, options)).toEqual(expected);
    // A waiting spare is stopped only once it has served its job.
    await served;
    expect(waitingSpares().get("pairwise-stats")).not.toBe(spare);
  }, 120_000);
});

