import { describe, expect, it } from "vitest";
import { INITIAL_PASSWORD_PATTERN, generateInitialPassword } from "@/lib/graders/initial-password";
import { pickUniqueSlug, randomSlugSuffix, slugify } from "@/lib/studies/slug";

describe("slugify", () => {
  it("makes a lower-case, dash-separated ASCII slug", () => {
    expect(slugify("Ophthalmology QA 2026")).toBe("ophthalmology-qa-2026");
    expect(slugify("  Anästhesie & Schmerz — Phase II!  ")).toBe("anasthesie-schmerz-phase-ii");
    expect(slugify("S.C.O.R.E. vs SAFE-LLM")).toBe("s-c-o-r-e-vs-safe-llm");
  });

  it("falls back to 'study' when nothing usable is left, and stays short without a trailing dash", () => {
    expect(slugify("!!!")).toBe("study");
    expect(slugify("日本語")).toBe("study");
    const long = slugify(`${"a".repeat(59)} b c`);
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long.endsWith("-")).toBe(false);
  });
});

describe("pickUniqueSlug", () => {
  it("returns the base when free, else the first free numbered suffix", () => {
    expect(pickUniqueSlug("trial", [])).toBe("trial");
    expect(pickUniqueSlug("trial", ["trial"])).toBe("trial-2");
    expect(pickUniqueSlug("trial", ["trial", "trial-2", "trial-3"])).toBe("trial-4");
    expect(pickUniqueSlug("trial", ["trial", "trial-3"])).toBe("trial-2");
    expect(pickUniqueSlug("trial", ["trial-2", "trialx"])).toBe("trial");
  });

  it("has a random last resort", () => {
    expect(randomSlugSuffix("trial")).toMatch(/^trial-[0-9a-f]{6}$/);
  });
});

describe("generateInitialPassword", () => {
  it("is long, readable, and different every time", () => {
    const all = Array.from({ length: 200 }, generateInitialPassword);
    for (const p of all) {
      expect(p).toMatch(INITIAL_PASSWORD_PATTERN);
      expect(p).toHaveLength(23);
      expect(p).not.toMatch(/[01ilo]/);
    }
    expect(new Set(all).size).toBe(all.length);
  });
});
