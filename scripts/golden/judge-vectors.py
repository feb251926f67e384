"""Reference values for the judge-vs-panel statistics (lib/stats: bland-altman,
classification, kendall-tau, judge-readings) from scipy and scikit-learn.

Run with the system Python (apt: python3-scipy, python3-sklearn):
    /usr/bin/python3 scripts/golden/judge-vectors.py > tests/fixtures/golden/judge-vectors.json
"""
import json
import numpy as np
from scipy import stats
from sklearn.metrics import cohen_kappa_score, confusion_matrix, f1_score

rng = np.random.default_rng(20261203)
cases = []

# Two readings of a 1-5 judge with a probability per level, against a panel.
levels = np.arange(1, 6)
n = 40
panel = rng.integers(2, 6, size=n)
probs = []
for p in panel:
    w = np.exp(-0.9 * (levels - p) ** 2) + rng.random(5) * 0.3
    probs.append(np.round(w / w.sum(), 6))
probs = np.array(probs)
probs[:, -1] = 1 - probs[:, :-1].sum(axis=1)
# Ties go to the lower level: np.argmax returns the first maximum.
probs[0] = [0.0, 0.4, 0.4, 0.2, 0.0]
most = levels[np.argmax(probs, axis=1)]
expected = (probs * levels).sum(axis=1)
rounded = np.floor(expected + 0.5).astype(int)
confidence = probs.max(axis=1)
cases.append({
    "metric": "judge_readings",
    "source": "numpy argmax (first maximum) and sum(level * p); round half up",
    "input": {"levels": levels.tolist(), "probabilities": probs.tolist()},
    "expected": {"most_probable": most.tolist(), "expected": expected.tolist(), "rounded": rounded.tolist(), "confidence": confidence.tolist()},
    "tolerance": 1e-12,
})

# Bland-Altman: bias, SD (ddof 1), limits bias +- 1.96 SD, t interval of the bias.
for name, a in [("most_probable", most), ("expected", expected)]:
    d = a - panel
    bias = d.mean(); sd = d.std(ddof=1); t = stats.t.ppf(0.975, len(d) - 1); se = sd / np.sqrt(len(d))
    cases.append({
        "metric": "bland_altman", "variant": name,
        "source": "numpy mean/std(ddof=1), scipy.stats.t.ppf",
        "input": {"a": a.tolist(), "b": panel.tolist()},
        "expected": {"bias": bias, "sd": sd, "limits": [bias - 1.96 * sd, bias + 1.96 * sd], "bias_ci": [bias - t * se, bias + t * se]},
        "tolerance": 1e-9,
    })

# Weighted kappa of the two readings against the panel (categories 1-5).
for name, a in [("most_probable", most), ("rounded_expected", rounded)]:
    for w in ["linear", "quadratic"]:
        cases.append({
            "metric": "cohen_kappa", "variant": f"{name} {w}",
            "source": "sklearn.metrics.cohen_kappa_score(labels=1..5, weights)",
            "input": {"ratings": [[int(x), int(y)] for x, y in zip(a, panel)], "categories": levels.tolist(), "weights": w},
            "expected": cohen_kappa_score(a, panel, labels=levels, weights=w),
            "tolerance": 1e-9,
        })

# Spearman (unrounded expected score) and Kendall's tau-b.
cases.append({"metric": "spearman", "source": "scipy.stats.spearmanr", "input": {"x": expected.tolist(), "y": panel.tolist()},
              "expected": stats.spearmanr(expected, panel).correlation, "tolerance": 1e-9})
model_judge = [3.91, 3.42, 4.05, 3.42, 2.87, 4.4]
model_panel = [4.1, 3.3, 3.9, 3.5, 3.0, 4.2]
for x, y in [(model_judge, model_panel), (expected.tolist(), panel.tolist()), ([1, 2, 3, 4], [4, 3, 2, 1]), ([1, 1, 2, 2, 3], [1, 2, 2, 3, 3])]:
    cases.append({"metric": "kendall_tau_b", "source": "scipy.stats.kendalltau (tau-b)", "input": {"x": x, "y": y},
                  "expected": stats.kendalltau(x, y).correlation, "tolerance": 1e-12})

# Confusion matrix and macro F1: nominal labels and a binary pass/fail.
ref = rng.choice(["correct", "partly", "wrong"], size=30, p=[0.5, 0.3, 0.2])
jud = np.where(rng.random(30) < 0.7, ref, rng.choice(["correct", "partly", "wrong"], size=30))
labs = ["correct", "partly", "wrong"]
cases.append({"metric": "classification", "variant": "nominal three classes",
              "source": "sklearn.metrics.confusion_matrix, f1_score(average='macro', zero_division=0)",
              "input": {"reference": ref.tolist(), "judged": jud.tolist(), "labels": labs},
              "expected": {"counts": confusion_matrix(ref, jud, labels=labs).tolist(), "macro_f1": f1_score(ref, jud, labels=labs, average="macro", zero_division=0),
                           "accuracy": float((ref == jud).mean())},
              "tolerance": 1e-12})
bref = (panel >= 4).astype(int); bjud = (expected >= 3.5).astype(int)
cases.append({"metric": "classification", "variant": "binary",
              "source": "sklearn.metrics.confusion_matrix, f1_score(average='macro', zero_division=0)",
              "input": {"reference": bref.tolist(), "judged": bjud.tolist(), "labels": [0, 1]},
              "expected": {"counts": confusion_matrix(bref, bjud, labels=[0, 1]).tolist(), "macro_f1": f1_score(bref, bjud, labels=[0, 1], average="macro", zero_division=0),
                           "accuracy": float((bref == bjud).mean())},
              "tolerance": 1e-12})
# A class the judge never uses: its F1 is 0 and counts in the average.
cases.append({"metric": "classification", "variant": "a class never predicted",
              "source": "sklearn.metrics.f1_score(average='macro', zero_division=0)",
              "input": {"reference": ["a", "a", "b", "c"], "judged": ["a", "a", "a", "c"], "labels": ["a", "b", "c"]},
              "expected": {"counts": confusion_matrix(["a", "a", "b", "c"], ["a", "a", "a", "c"], labels=["a", "b", "c"]).tolist(),
                           "macro_f1": f1_score(["a", "a", "b", "c"], ["a", "a", "a", "c"], labels=["a", "b", "c"], average="macro", zero_division=0), "accuracy": 0.75},
              "tolerance": 1e-12})

def clean(o):
    if isinstance(o, dict): return {k: clean(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)): return [clean(v) for v in o]
    if isinstance(o, (np.integer,)): return int(o)
    if isinstance(o, (np.floating,)): return float(o)
    return o

print(json.dumps(clean(cases), indent=1))
