import { describe, expect, it } from "vitest";
import { cosineSimilarity } from "@/lib/stats/cosine";

describe("cosine similarity", () => {
  it("is the cosine of the angle, checked by hand", () => {
    expect(cosineSimilarity([1, 0], [0, 1])).toBe(0);
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 15);
    expect(cosineSimilarity([1, 0], [-1, 0])).toBe(-1);
    // (3,4)·(4,3) = 24, |a| = |b| = 5: 24/25.
    expect(cosineSimilarity([3, 4], [4, 3])).toBeCloseTo(0.96, 15);
    // (1,1,0)·(1,0,1) = 1, |a| = |b| = sqrt 2: 1/2.
    expect(cosineSimilarity([1, 1, 0], [1, 0, 1])).toBeCloseTo(0.5, 15);
    // Scale does not matter, and it is symmetric.
    expect(cosineSimilarity([3e-100, 4e-100], [4e100, 3e100])).toBeCloseTo(0.96, 12);
    expect(cosineSimilarity(new Float32Array([0.2, -0.5, 0.1]), [0.1, 0.3, -0.7])).toBeCloseTo(cosineSimilarity([0.1, 0.3, -0.7], new Float32Array([0.2, -0.5, 0.1]))!, 15);
  });

  it("stays within [-1, 1] where rounding would leave it outside", () => {
    const v = [0.1, 0.2, 0.3, 0.7, 1e-8];
    const c = cosineSimilarity(v, v)!;
    expect(c).toBeLessThanOrEqual(1);
    expect(c).toBeCloseTo(1, 14);
  });

  it("a zero vector has no angle: null, not 0 and not NaN", () => {
    expect(cosineSimilarity([0, 0, 0], [1, 2, 3])).toBeNull();
    expect(cosineSimilarity([1, 2, 3], [0, 0, 0])).toBeNull();
    expect(cosineSimilarity([0], [0])).toBeNull();
  });

  it("vectors of different lengths, empty vectors, NaN and infinities are errors", () => {
    expect(() => cosineSimilarity([1, 2], [1, 2, 3])).toThrow(/different lengths \(2 and 3\)/);
    expect(() => cosineSimilarity([], [])).toThrow(/empty/);
    expect(() => cosineSimilarity([1, NaN], [1, 2])).toThrow(/not a finite number at 1/);
    expect(() => cosineSimilarity([1, 2], [Infinity, 2])).toThrow(/not a finite number at 0/);
  });
});
