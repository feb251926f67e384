"""Reference values for the reference-based text metrics (lib/stats/bleu.ts, rouge.ts,
text-tokenize.ts), issue #33.

Run with Debian's Python (apt: python3-nltk):
    /usr/bin/python3 scripts/golden/text_metric_vectors.py > tests/fixtures/golden/text-metric-vectors.json

Neither sacreBLEU nor rouge-score is packaged in Debian, so:

- Tokens. `tok13a` is sacreBLEU's 13a tokeniser (tokenizer_13a.py + tokenizer_re.py: the same
  Python `re` patterns, applied after BLEU._preprocess_segment's rstrip); `tok_rouge` is
  rouge-score's tokenize.tokenize without stemmer. Both run here on Python's regex engine and
  Python's str.lower/str.split, and the TS tokenisers must give the same token lists.
- Sentence BLEU: NLTK sentence_bleu([ref], hyp, smoothing_function=SmoothingFunction().method3,
  auto_reweigh=True) on those 13a tokens. method3 is "NIST geometric sequence smoothing" (the
  k-th order with no match counts 1 / (2^k * denominator)), the same as sacreBLEU's
  smooth_method='exp'; auto_reweigh=True (uniform weights over min(4, len(hyp)) orders) is
  sacreBLEU's use_effective_order=True for one segment (an order is dropped exactly when the
  hypothesis has no n-gram of it). Both return 0 without a unigram match, and use the same
  brevity penalty.
- Corpus BLEU: NLTK corpus_bleu(..., method3) when every hypothesis has >= 4 tokens. NLTK's
  modified_precision counts max(1, n-grams) in the denominator of each segment, sacreBLEU the
  n-grams themselves, so with shorter hypotheses the two differ; for those corpora the expected
  value takes NLTK's clipped match counts (modified_precision numerators) and the true n-gram
  totals, and applies sacreBLEU's compute_bleu(smooth 'exp', effective order off) below.
- ROUGE-1/ROUGE-L F1: a second implementation of rouge-score's _score_ngrams and _score_lcs
  (full DP table, Python) on the rouge tokens.
"""
import json
import math
import random
import re
from collections import Counter
from fractions import Fraction

import nltk
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, modified_precision, sentence_bleu

SMOOTH = SmoothingFunction().method3

# --- sacreBLEU 13a (tokenizer_13a.py, tokenizer_re.py) -------------------------------------
_RE13A = [
    (re.compile(r'([\{-\~\[-\` -\&\(-\+\:-\@\/])'), r' \1 '),
    (re.compile(r'([^0-9])([\.,])'), r'\1 \2 '),
    (re.compile(r'([\.,])([^0-9])'), r' \1 \2'),
    (re.compile(r'([0-9])(-)'), r'\1 \2 '),
]


def tok13a(line):
    line = line.rstrip()
    line = line.replace('<skipped>', '').replace('-\n', '').replace('\n', ' ')
    line = line.replace('&quot;', '"').replace('&amp;', '&').replace('&lt;', '<').replace('&gt;', '>')
    line = " {} ".format(line)
    for r, repl in _RE13A:
        line = r.sub(repl, line)
    return line.strip().split()


# --- rouge-score tokenize.tokenize(text, stemmer=None) -------------------------------------
def tok_rouge(text):
    text = text.lower()
    text = re.sub(r"[^a-z0-9]+", " ", text)
    tokens = re.split(r"\s+", text)
    return [x for x in tokens if re.match(r"^[a-z0-9]+$", x)]


def fmeasure(p, r):
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def rouge1(ref, hyp):
    rc, hc = Counter(ref), Counter(hyp)
    inter = sum(min(c, hc[t]) for t, c in rc.items())
    p = inter / max(len(hyp), 1)
    r = inter / max(len(ref), 1)
    return fmeasure(p, r)


def rougeL(ref, hyp):
    if not ref or not hyp:
        return 0.0
    t = [[0] * (len(hyp) + 1) for _ in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        for j in range(1, len(hyp) + 1):
            t[i][j] = t[i - 1][j - 1] + 1 if ref[i - 1] == hyp[j - 1] else max(t[i - 1][j], t[i][j - 1])
    lcs = t[-1][-1]
    return fmeasure(lcs / len(hyp), lcs / len(ref))


# --- BLEU -----------------------------------------------------------------------------------
def nltk_sentence(ref, hyp):
    return float(sentence_bleu([ref], hyp, smoothing_function=SMOOTH, auto_reweigh=True))


def sacre_compute_bleu(correct, total, sys_len, ref_len):
    """sacreBLEU compute_bleu, smooth 'exp', effective_order False, on the 0-1 scale."""
    bp = (math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0) if sys_len < ref_len else 1.0
    if not any(correct):
        return 0.0
    precisions = [0.0] * 4
    smooth = 1.0
    for n in range(4):
        if total[n] == 0:
            break
        if correct[n] == 0:
            smooth *= 2
            precisions[n] = 1.0 / (smooth * total[n])
        else:
            precisions[n] = correct[n] / total[n]
    return bp * math.exp(sum(math.log(p) if p > 0 else -9999999999 for p in precisions) / 4)


def corpus_expected(pairs):
    refs = [tok13a(r) for r, _ in pairs]
    hyps = [tok13a(h) for _, h in pairs]
    if all(len(h) >= 4 for h in hyps):
        return float(corpus_bleu([[r] for r in refs], hyps, smoothing_function=SMOOTH)), \
            "nltk corpus_bleu(method3), all hypotheses >= 4 tokens"
    correct, total = [0] * 4, [0] * 4
    for r, h in zip(refs, hyps):
        for n in range(1, 5):
            correct[n - 1] += modified_precision([r], h, n).numerator
            total[n - 1] += max(0, len(h) - n + 1)
    return sacre_compute_bleu(correct, total, sum(map(len, hyps)), sum(map(len, refs))), \
        "nltk modified_precision numerators, true n-gram totals, sacreBLEU compute_bleu('exp', eff=False)"


# --- cases ------------------------------------------------------------------------------------
rng = random.Random(20261204)
VOCAB = ("the patient should take ibuprofen 400 mg every 6 hours with food and avoid alcohol "
         "if symptoms persist for more than 3 days consult a physician fever pain dose renal "
         "function monitor blood pressure daily chest x-ray shows no consolidation").split()


def words(n):
    return " ".join(rng.choice(VOCAB) for _ in range(n))


long_ref = words(1200) + "."
long_hyp = " ".join(w if rng.random() > 0.25 else rng.choice(VOCAB) for w in long_ref.split()[:1000]) + ", 2.5 mg."

PAIRS = [
    ("both empty", "", ""),
    ("empty hypothesis", "Take 400 mg ibuprofen.", ""),
    ("empty reference", "", "Take 400 mg ibuprofen."),
    ("whitespace only", "   \n ", " \t "),
    ("one word same", "Yes", "Yes"),
    ("one word case differs", "Yes", "yes"),
    ("one word different", "Yes", "No"),
    ("two words one match", "Seek care", "Seek help"),
    ("three words", "Call emergency services", "Call emergency services now"),
    ("repeated word", "the cat sat on the mat", "the the the the the the the"),
    ("repeated phrase", "rest and fluids", "rest and fluids rest and fluids rest and fluids"),
    ("identical sentence", "Drink plenty of fluids and rest for two days.", "Drink plenty of fluids and rest for two days."),
    ("reordered", "aspirin reduces fever and pain", "pain and fever reduces aspirin"),
    ("no overlap", "Antibiotics are not indicated.", "Schedule a follow-up visit."),
    ("numbers and units", "Give 2.5 mg/kg IV, max 10,000 units.", "Give 2.5 mg per kg IV (maximum 10,000 units)."),
    ("dash after digit", "Repeat in 5-10 minutes", "Repeat in 5 - 10 minutes"),
    ("html entities", "Use &quot;PRN&quot; dosing &amp; review &lt;24h&gt;", "Use \"PRN\" dosing & review <24h>"),
    ("skipped marker and hyphen newline", "The anti-\ninflammatory <skipped> works", "The antiinflammatory works"),
    ("trailing punctuation", "Stop the drug!", "Stop the drug immediately!!!"),
    ("brackets and quotes", "Dose [mg] {daily} `x` ~approx~", "Dose (mg) daily x approx"),
    ("period inside number vs sentence", "Take 0.5 tablets. Then 1.5.", "Take 0.5 tablets.Then 1.5"),
    ("comma between digits", "1,000 or 1, 000", "1,000 or 1,000"),
    ("french accents", "La fièvre persiste après trois jours.", "La fièvre dure après trois jours."),
    ("german sharp s", "Große Dosis für Ältere", "große dosis fur altere"),
    ("greek only", "Ο ασθενής έχει πυρετό", "Ο ασθενής έχει βήχα"),
    ("cjk", "患者发烧三天", "患者发烧两天"),
    ("emoji and astral", "Take care 😀.", "Take care 😀 ."),
    ("dotted capital I and kelvin", "İbuprofen at 300 K", "ibuprofen at 300 k"),
    ("nbsp and unicode spaces", "take\u00a0two\u2003tablets\u0085now", "take two tablets now"),
    ("bom and zero width", "\ufeffTake two\u200b tablets", "Take two tablets"),
    ("hypothesis longer", "Rest.", "Rest, drink fluids, take paracetamol, and see a doctor if worse."),
    ("hypothesis shorter", "Rest, drink fluids, take paracetamol, and see a doctor if worse.", "Rest."),
    ("mixed case sentence", "MRI Of The Brain Is Normal", "mri of the brain is normal"),
    ("clinical paragraph", "Start metformin 500 mg twice daily with meals; titrate to 1000 mg twice daily over 4 weeks. Check renal function (eGFR) before starting.",
     "Begin metformin 500 mg two times a day with food, increasing to 1000 mg twice daily within 4 weeks; check eGFR first."),
    ("long answers", long_ref, long_hyp),
    ("long random", words(400), words(380)),
]

cases = []
for name, ref, hyp in PAIRS:
    rt, ht = tok13a(ref), tok13a(hyp)
    rr, hr = tok_rouge(ref), tok_rouge(hyp)
    cases.append({
        "kind": "pair", "name": name, "reference": ref, "hypothesis": hyp,
        "tokens13a": {"reference": rt, "hypothesis": ht},
        "tokensRouge": {"reference": rr, "hypothesis": hr},
        "expected": {"bleu": nltk_sentence(rt, ht), "rouge1": rouge1(rr, hr), "rougeL": rougeL(rr, hr)},
        "source": {"bleu": f"nltk {nltk.__version__} sentence_bleu(method3, auto_reweigh=True) on 13a tokens",
                   "rouge": "rouge-score _score_ngrams/_score_lcs re-implemented with a full DP table"},
        "tolerance": 1e-9,
    })

by_name = {n: (r, h) for n, r, h in PAIRS}
CORPORA = [
    ("sentences of 4+ tokens", ["identical sentence", "reordered", "numbers and units", "clinical paragraph", "french accents", "no overlap"]),
    ("with short hypotheses", ["one word same", "two words one match", "three words", "clinical paragraph", "repeated word"]),
    ("only short hypotheses", ["one word same", "two words one match", "one word different"]),
    ("no match at all", ["one word different", "no overlap"]),
    ("with empty hypothesis", ["empty hypothesis", "identical sentence", "long random"]),
    ("long", ["long answers", "long random", "clinical paragraph"]),
]
for name, members in CORPORA:
    pairs = [by_name[m] for m in members]
    value, source = corpus_expected(pairs)
    cases.append({"kind": "corpus", "name": name, "pairs": [{"reference": r, "hypothesis": h} for r, h in pairs],
                  "expected": {"bleu": value}, "source": {"bleu": source}, "tolerance": 1e-9})

# Random strings of the characters the tokenisers treat specially: tokens only.
ALPHABET = ["a", "B", "1", "9", ".", ",", "-", " ", "  ", "\n", "\u00a0", "\u0085", "\ufeff", "\u001c", "(", "'",
            "&amp;", "&quot;", "<skipped>", "-\n", "é", "İ", "\u212a", "ß", "😀", ":", "~", "\t", "/", "$", "%"]
texts = ["".join(rng.choice(ALPHABET + [".", ",", "-", "5", "."]) for _ in range(rng.randint(1, 20))) for _ in range(2000)]
cases.append({"kind": "tokens", "name": "random strings", "texts": texts,
              "tokens13a": [tok13a(t) for t in texts], "tokensRouge": [tok_rouge(t) for t in texts],
              "source": {"tokens": "sacreBLEU 13a regexes and rouge-score tokenize, Python re"}, "tolerance": 0})

print(json.dumps(cases, indent=1, ensure_ascii=False))
