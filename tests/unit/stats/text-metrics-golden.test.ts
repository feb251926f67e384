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
import { rougeF1 } from "@/lib/stats/rouge";
import { lcsLength, rouge1FromTokens, rougeLFromTokens } from "@/lib/stats/rouge";
import { prepareReference, scoreAnswer } from "@/lib/stats/text-metrics";
import { pySplit, pySplitRegex, tokenize13a, tokenize13aRegex, tokenizeRouge } from "@/lib/stats/text-tokenize";
import { mulberry32 } from "@/lib/stats";

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
interface TokensCase {
  kind: "tokens";
  name: string;
  texts: string[];
  tokens13a: string[][];
  tokensRouge: string[][];
}
type Case = PairCase | CorpusCase | TokensCase;

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
        // The import's fast path (prepared reference, numeric n-grams, bit-parallel LCS).
        const fast = scoreAnswer(prepareReference(c.reference), c.hypothesis);
        close(fast.bleu, c.expected.bleu, c.tolerance);
        close(fast.rouge1, c.expected.rouge1, c.tolerance);
        close(fast.rougeL, c.expected.rougeL, c.tolerance);
      } else if (c.kind === "corpus") {
        close(corpusBleu(c.pairs), c.expected.bleu, c.tolerance);
      } else if (c.kind === "tokens") {
        c.texts.forEach((t, i) => {
          expect(tokenize13a(t), JSON.stringify(t)).toEqual(c.tokens13a[i]);
          expect(tokenizeRouge(t), JSON.stringify(t)).toEqual(c.tokensRouge[i]);
        });
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

  it("the fast path equals the plain one on random texts around the 32-token word edges", () => {
    const rng = mulberry32(33);
    const vocab = ["a", "b", "c", "d", "e", "f", "g", "h", ".", ","];
    const text = (n: number) => Array.from({ length: n }, () => vocab[Math.floor(rng() * vocab.length)]).join(" ");
    const sameRef = prepareReference("a b c d a b c d e");
    for (const [rn, hn] of [[1, 1], [31, 33], [32, 32], [33, 64], [64, 65], [95, 7], [200, 180]]) {
      for (let k = 0; k < 5; k++) {
        const ref = text(rn);
        const hyp = text(hn);
        const fast = scoreAnswer(prepareReference(ref), hyp);
        const rt = tokenizeRouge(ref);
        const ht = tokenizeRouge(hyp);
        expect(fast.rougeL).toBeCloseTo(rougeLFromTokens(rt, ht).f1, 12);
        expect(fast.rouge1).toBeCloseTo(rouge1FromTokens(rt, ht).f1, 12);
        expect(fast.bleu).toBeCloseTo(sentenceBleu(hyp, ref), 12);
        // A prepared reference scores many answers: its tallies must not leak between them.
        expect(scoreAnswer(sameRef, hyp).bleu).toBeCloseTo(sentenceBleu(hyp, "a b c d a b c d e"), 12);
      }
    }
  });

  it("the fast path equals the plain one on random texts of tricky characters", () => {
    const rng = mulberry32(77);
    const alphabet = ["a", "A", "b", "B", "1", "2", ".", ",", "-", " ", " ", " ", "\n", "İ", "\u212a", "k", "é", "(", "'", "&amp;", "-\n", "<skipped>", "😀", "ß", "Ab", "ab"];
    const text = () => Array.from({ length: Math.floor(rng() * 40) }, () => alphabet[Math.floor(rng() * alphabet.length)]).join("");
    for (let k = 0; k < 3000; k++) {
      const ref = text();
      const hyp = rng() < 0.3 ? ref.slice(0, Math.floor(rng() * ref.length)) + text() : text();
      const fast = scoreAnswer(prepareReference(ref), hyp);
      const plain = rougeF1(ref, hyp);
      const where = JSON.stringify([ref, hyp]);
      expect(fast.bleu, where).toBeCloseTo(sentenceBleu(hyp, ref), 12);
      expect(fast.rouge1, where).toBeCloseTo(plain.rouge1, 12);
      expect(fast.rougeL, where).toBeCloseTo(plain.rougeL, 12);
    }
  });

  it("the fast path keys n-grams by strings past 9,741 distinct reference tokens, with the same result", () => {
    const ref = Array.from({ length: 10_000 }, (_, i) => `w${i}`).join(" ");
    const hyp = Array.from({ length: 300 }, (_, i) => `w${(i * 7) % 400} w${i} w${i + 1}`).join(" ");
    expect(scoreAnswer(prepareReference(ref), hyp).bleu).toBeCloseTo(sentenceBleu(hyp, ref), 12);
    expect(sentenceBleu(hyp, ref)).toBeGreaterThan(0);
  });

  it("the tokenisers equal sacreBLEU's regexes applied literally, on random strings", () => {
    // sacreBLEU's tokenizer_re as written (space in the symbol class, every rule applied).
    const literal = (text: string) => {
      let line = ` ${text.replace(/[\t\n\x0B\x0C\r\x1C-\x1F \x85\xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+$/u, "").replaceAll("<skipped>", "").replaceAll("-\n", "").replaceAll("\n", " ").replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&lt;", "<").replaceAll("&gt;", ">")} `;
      line = line.replace(/([{-~[-`\x20-&(-+:-@/])/gu, " $1 ").replace(/([^0-9])([.,])/gu, "$1 $2 ").replace(/([.,])([^0-9])/gu, " $1 $2").replace(/([0-9])(-)/gu, "$1 $2 ");
      return pySplitRegex(line);
    };
    const rng = mulberry32(13);
    const alphabet = ["a", "B", "1", "9", ".", ",", "-", ".", ",", "-", "5", " ", "  ", "\n", "\u00a0", "\u0085", "\ufeff", "(", "'", "&amp;", "<skipped>", "é", "😀", ":", "~", "\t"];
    for (let k = 0; k < 20000; k++) {
      const s = Array.from({ length: 1 + Math.floor(rng() * 14) }, () => alphabet[Math.floor(rng() * alphabet.length)]).join("");
      expect(tokenize13a(s), JSON.stringify(s)).toEqual(literal(s));
      expect(tokenize13aRegex(s), JSON.stringify(s)).toEqual(literal(s));
      expect(pySplit(s)).toEqual(pySplitRegex(s));
      expect(tokenizeRouge(s)).toEqual(s.toLowerCase().replace(/[^a-z0-9]+/g, " ").split(/\s+/).filter((t) => /^[a-z0-9]+$/.test(t)));
    }
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
