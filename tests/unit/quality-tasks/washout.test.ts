import { describe, expect, it } from "vitest";
import { drawnForWashout, washoutAnswerOrder } from "@/lib/quality-tasks/washout";

describe("the washout draw", () => {
  it("draws each assignment with the study's share, the same way every time for a seed and an id", () => {
    // Fixed ids, so the test draws the same every run.
    const ids = Array.from({ length: 20_000 }, (_, i) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, "0")}`);
    for (const share of [0.1, 0.5, 0.9]) {
      const drawn = ids.filter((id) => drawnForWashout("seed", id, share)).length / ids.length;
      // Binomial SD at 20,000 draws is at most 0.0036: 0.02 is more than five of them.
      expect(Math.abs(drawn - share), String(share)).toBeLessThan(0.02);
    }
    expect(ids.filter((id) => drawnForWashout("seed", id, 0)).length).toBe(0);
    expect(ids.filter((id) => drawnForWashout("seed", id, 1)).length).toBe(ids.length);
    expect(ids.map((id) => drawnForWashout("seed", id, 0.5))).toEqual(ids.map((id) => drawnForWashout("seed", id, 0.5)));
    // Another seed draws other assignments.
    expect(ids.filter((id) => drawnForWashout("seed", id, 0.5) !== drawnForWashout("other", id, 0.5)).length).toBeGreaterThan(ids.length / 3);
  });

  it("gives the answers a new order", () => {
    for (let k = 0; k < 200; k++) {
      const order = washoutAnswerOrder("seed", `a-${k}`, 3);
      expect([...order].sort()).toEqual([1, 2, 3]);
      expect(order).not.toEqual([1, 2, 3]);
    }
    expect(washoutAnswerOrder("seed", "a", 1)).toEqual([1]);
  });
});
