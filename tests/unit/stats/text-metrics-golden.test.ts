/**
 * Reference-based metrics (issue #33) against tests/fixtures/golden/text-metric-vectors.json,
 * written by scripts/golden/text_metric_vectors.py: 13a and rouge-score tokens from the packages'
 * own Python regexes, sentence/corpus BLEU from NLTK (method3 = sacreBLEU 'exp'), ROUGE-1/ROUGE-L
 * from a second implementation (full DP table). Every case is dispatched; an unknown kind fails.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { corpusBleu, sentenceBleu } from "@/lib/stats/bleu";
import { lcsLength, rougeF1 } from "@/lib/stats/rouge";
import { tokenize13a, tokenizeRouge } from "@/lib/stats/text-tokenize";

interface PairCase {
  kind: "pair";
  name: string;
  reference: string;
  hypothesis: string;
  tokens13a: { reference: string[]; hypothesis: string[] };
  tokensRouge: { reference: string[]; hypothesis: string[] };
  expected: { bleu: number; rouge1: number; rougeL: number };
  tolerance: number;
}
interface CorpusCase {
  kind: "corpus";
  name: string;
  pairs: { reference: string; hypothesis: string }[];
  expected: { bleu: number };
  tolerance: number;
}
type Case = PairCase | CorpusCase;

const cases: Case[] = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, "../../fixtures/golden/text-metric-vectors.json"), "utf8"),
);

function close(actual: number, expected: number, tol: number) {
  expect(Math.abs(actual - expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(tol);
}

describe("text metric golden vectors", () => {
  it("has at least 30 pairs and covers the edge cases the issue names", () => {
    const names = cases.filter((c) => c.kind === "pair").map((c) => c.name);
    expect(names.length).toBeGreaterThanOrEqual(30);
    for (const n of ["both empty", "one word same", "repeated word", "greek only", "cjk", "long answers"]) expect(names).toContain(n);
  });

  for (const c of cases) {
    it(`${c.kind}: ${c.name}`, () => {
      if (c.kind === "pair") {
        expect(tokenize13a(c.reference)).toEqual(c.tokens13a.reference);
        expect(tokenize13a(c.hypothesis)).toEqual(c.tokens13a.hypothesis);
        expect(tokenizeRouge(c.reference)).toEqual(c.tokensRouge.reference);
        expect(tokenizeRouge(c.hypothesis)).toEqual(c.tokensRouge.hypothesis);
        close(sentenceBleu(c.hypothesis, c.reference), c.expected.bleu, c.tolerance);
        const r = rougeF1(c.reference, c.hypothesis);
        close(r.rouge1, c.expected.rouge1, c.tolerance);
        close(r.rougeL, c.expected.rougeL, c.tolerance);
      } else if (c.kind === "corpus") {
        close(corpusBleu(c.pairs), c.expected.bleu, c.tolerance);
      } else {
        throw new Error(`unknown case kind ${(c as { kind: string }).kind}`);
      }
    });
  }
});

describe("text metric conventions", () => {
  it("drops non-ASCII letters in ROUGE tokens as rouge-score does", () => {
    expect(tokenizeRouge("La fièvre")).toEqual(["la", "fi", "vre"]);
    expect(tokenizeRouge("Ο ασθενής 患者")).toEqual([]);
  });

  it("keeps case and splits 13a punctuation except inside numbers", () => {
    expect(tokenize13a("Give 2.5 mg, then 5-10 min.")).toEqual(["Give", "2.5", "mg", ",", "then", "5", "-", "10", "min", "."]);
  });

  it("sentence BLEU uses the effective order and exp smoothing", () => {
    // 2 tokens, 1 unigram match, no bigram: sqrt(1/2 * 1/(2*1)) = 0.5
    expect(sentenceBleu("Seek help", "Seek care")).toBeCloseTo(0.5, 12);
  });

  it("LCS of long lists matches a full table", () => {
    const a = "a b c a b d a b c d e f".split(" ");
    const b = "b a c d a b e f c".split(" ");
    const t: number[][] = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++) t[i][j] = a[i - 1] === b[j - 1] ? t[i - 1][j - 1] + 1 : Math.max(t[i - 1][j], t[i][j - 1]);
    expect(lcsLength(a, b)).toBe(t[a.length][b.length]);
  });
});
