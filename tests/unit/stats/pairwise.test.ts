import { describe, expect, it } from "vitest";
import { analysePreferences, preferencesFromScores, type PreferenceObservation } from "@/lib/stats/pairwise";
import { bradleyTerryFromCounts, fleissKappa, gwetAC1, mulberry32 } from "@/lib/stats";

const obs = (comparison: string, question: string, axis: string, grader: string, leftModel: string, rightModel: string, choice: PreferenceObservation["choice"], lengths: [number, number] = [100, 100]): PreferenceObservation => ({
  comparison, question, axis, grader, leftModel, rightModel, choice, leftLength: lengths[0], rightLength: lengths[1],
});

describe("pairwise analysis", () => {
  it("counts wins, ties and losses from the side each model sat on", () => {
    const rows = [
      obs("c1", "q1", "factuality", "g1", "bravo", "alpha", "left"), // bravo wins
      obs("c1", "q1", "factuality", "g2", "bravo", "alpha", "tie"),
      obs("c2", "q2", "factuality", "g1", "alpha", "bravo", "left"), // alpha wins
      obs("c2", "q2", "factuality", "g2", "alpha", "bravo", "right"), // bravo wins
      obs("c3", "q3", "factuality", "g1", "charlie", "alpha", "right"), // alpha wins
    ];
    const a = analysePreferences(rows, { replicates: 50 });
    expect(a.models).toEqual(["alpha", "bravo", "charlie"]);
    expect(a.axes).toHaveLength(1);
    const ab = a.axes[0].pairs.find((p) => p.a === "alpha" && p.b === "bravo")!;
    expect([ab.summary.wins, ab.summary.ties, ab.summary.losses]).toEqual([1, 1, 2]);
    const ac = a.axes[0].pairs.find((p) => p.a === "alpha" && p.b === "charlie")!;
    expect([ac.summary.wins, ac.summary.ties, ac.summary.losses]).toEqual([1, 0, 0]);
    // Left won 2 of the 4 decisive preferences.
    expect(a.axes[0].positionBias.successes).toBe(2);
    expect(a.axes[0].positionBias.n).toBe(4);
  });

  it("detects a grader who always picks the left answer, and the longer answer's edge", () => {
    const rng = mulberry32(3);
    const rows: PreferenceObservation[] = [];
    for (let q = 0; q < 200; q++) {
      const [l, r] = rng() < 0.5 ? ["alpha", "bravo"] : ["bravo", "alpha"];
      const lengths: [number, number] = rng() < 0.5 ? [300, 900] : [900, 300];
      rows.push(obs(`c${q}`, `q${q}`, "overall", "lefty", l, r, "left", lengths));
      rows.push(obs(`c${q}`, `q${q}`, "overall", "wordy", l, r, lengths[0] > lengths[1] ? "left" : "right", lengths));
    }
    const [axis] = analysePreferences(rows, { replicates: 50 }).axes;
    expect(axis.positionBias.estimate!).toBeGreaterThan(0.7);
    expect(axis.positionBias.pValue!).toBeLessThan(1e-6);
    expect(axis.lengthBias.estimate!).toBeGreaterThan(0.7);
    expect(axis.lengthBias.pValue!).toBeLessThan(1e-6);
    // The two graders agree exactly when the longer answer is on the left.
    const expectedRows = Array.from({ length: 200 }, (_, q) => [rows[2 * q].choice, rows[2 * q + 1].choice]);
    expect(axis.agreement.fleiss.kappa).toBeCloseTo(fleissKappa(expectedRows, { categories: ["left", "tie", "right"] }).kappa!, 12);
    expect(axis.agreement.ac1.coefficient).toBeCloseTo(gwetAC1(expectedRows, { categories: ["left", "tie", "right"] }).coefficient!, 12);
    expect(axis.agreement.comparisons).toBe(200);
  });

  it("fits strengths on every grader's preference and pools axes into an overall row", () => {
    const rows: PreferenceObservation[] = [];
    let c = 0;
    for (let q = 0; q < 30; q++) {
      for (const axis of ["factuality", "conciseness"]) {
        // Alpha sits left on even questions and right on odd ones: the choice follows the side.
        const [l, r] = q % 2 === 0 ? ["alpha", "bravo"] : ["bravo", "alpha"];
        const alphaWins = q % 2 === 0 ? "left" : "right";
        const bravoWins = q % 2 === 0 ? "right" : "left";
        rows.push(obs(`c${c}`, `q${q}`, axis, "g1", l, r, q % 3 === 0 ? bravoWins : alphaWins));
        rows.push(obs(`c${c}`, `q${q}`, axis, "g2", l, r, q % 5 === 0 ? "tie" : alphaWins));
        c++;
      }
    }
    const a = analysePreferences(rows, { replicates: 100, seed: 4 });
    expect(a.axes.map((x) => x.axis)).toEqual(["factuality", "conciseness", null]);
    // Per axis, from the questions' design by hand: alpha wins 20 + 24 = 44 of 60, bravo 10, ties 6.
    const direct = bradleyTerryFromCounts({ wins: [[0, 44], [10, 0]], ties: [[0, 6], [6, 0]] });
    a.axes[0].strengths.logStrength!.forEach((v, i) => expect(v).toBeCloseTo(direct.logStrength![i], 12));
    const pair = a.axes[0].pairs[0];
    expect([pair.a, pair.b, pair.summary.wins, pair.summary.ties, pair.summary.losses]).toEqual(["alpha", "bravo", 44, 6, 10]);
    expect(a.axes[2].n).toBe(120);
    expect(a.axes[2].strengths.logStrength![0]).toBeGreaterThan(0);
    // Agreement pools per (comparison, axis): 60 units.
    expect(a.axes[2].agreement.comparisons).toBe(60);
  });

  it("leaves adjudicators out of agreement", () => {
    const rows = [
      obs("c1", "q1", "x", "g1", "a", "b", "left"),
      obs("c1", "q1", "x", "g2", "a", "b", "right"),
      { ...obs("c1", "q1", "x", "g3", "a", "b", "left"), primary: false },
    ];
    const [axis] = analysePreferences(rows, { replicates: 10 }).axes;
    expect(axis.agreement.percent).toBe(0);
    expect(axis.n).toBe(3);
  });

  it("turns a scoring study's final scores into preferences", () => {
    const prefs = preferencesFromScores([
      { question: "q1", model: "bravo", score: 4 },
      { question: "q1", model: "alpha", score: 3 },
      { question: "q1", model: "charlie", score: 4 },
      { question: "q2", model: "alpha", score: 5 },
      { question: "q2", model: "bravo", score: Number.NaN },
    ], "total");
    expect(prefs.map((p) => [p.leftModel, p.rightModel, p.choice])).toEqual([
      ["alpha", "bravo", "right"],
      ["alpha", "charlie", "right"],
      ["bravo", "charlie", "tie"],
    ]);
  });
});
