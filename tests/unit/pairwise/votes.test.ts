import { describe, expect, it } from "vitest";
import { comparisonDisagreements, majorityChoice, type Choice } from "@/lib/pairwise/votes";

const axes = [
  { rubric: "r", axis: "x", escalates: true },
  { rubric: "r", axis: "y", escalates: true },
  { rubric: "r", axis: "quiet", escalates: false },
];
const graders = (a: Record<string, Choice>, b: Record<string, Choice>) => ({
  g1: Object.entries(a).map(([axis, choice]) => ({ rubric: "r", axis, choice })),
  g2: Object.entries(b).map(([axis, choice]) => ({ rubric: "r", axis, choice })),
});

describe("a comparison's disagreements", () => {
  it("is one preferring left and another right; a tie against a preference agrees unless the study says so; a quiet axis never escalates", () => {
    const votes = graders({ x: "LEFT", y: "TIE", quiet: "LEFT" }, { x: "RIGHT", y: "LEFT", quiet: "RIGHT" });
    expect(comparisonDisagreements(axes, votes, false).map((d) => d.axis)).toEqual(["x"]);
    expect(comparisonDisagreements(axes, votes, true).map((d) => d.axis)).toEqual(["x", "y"]);
    expect(comparisonDisagreements(axes, graders({ x: "TIE", y: "TIE" }, { x: "TIE", y: "TIE" }), true)).toEqual([]);
    expect(comparisonDisagreements(axes, votes, false)[0].choices).toEqual({ g1: "LEFT", g2: "RIGHT" });
  });
});

describe("the final preference", () => {
  it("is the majority of the votes, and a tie of votes is a tie", () => {
    expect(majorityChoice(["LEFT", "LEFT", "RIGHT"])).toBe("LEFT");
    expect(majorityChoice(["LEFT", "RIGHT", "RIGHT"])).toBe("RIGHT");
    expect(majorityChoice(["LEFT", "RIGHT"])).toBe("TIE");
    expect(majorityChoice(["LEFT", "RIGHT", "TIE"])).toBe("TIE");
    expect(majorityChoice(["LEFT", "TIE", "TIE"])).toBe("TIE");
    expect(majorityChoice(["LEFT", "LEFT", "TIE", "TIE"])).toBe("TIE");
    expect(majorityChoice(["RIGHT"])).toBe("RIGHT");
    expect(majorityChoice([])).toBeNull();
  });
});
