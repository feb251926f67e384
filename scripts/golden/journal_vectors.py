#!/usr/bin/python3
"""
Golden vectors for the journal statistics of lib/stats (issue #17, item 2), computed with the
reference packages each convention is pinned to:

  cohen_kappa        scikit-learn cohen_kappa_score (ranks of observed labels)
                     statsmodels cohens_kappa (value and FCE standard error; weights = ranks,
                     or the declared scale's values)
                     R psych::cohen.kappa (unweighted interval, cross-check)
  kendall_w          the cardiology study's formula on pandas average ranks (uncorrected);
                     R friedman.test on the transposed table / (m (n - 1)) (tie-corrected)
  friedman           R friedman.test
  wilcoxon           R wilcox.test(paired = TRUE) defaults; scipy.stats.wilcoxon statistic
  p_adjust           R p.adjust (holm, BH)
  descriptives       R mean, sd, quantile(type = 7)

Debian bookworm: apt-get install r-base-core r-cran-psych python3-sklearn python3-scipy
python3-pandas python3-statsmodels. Run from the repository root:
  /usr/bin/python3 scripts/golden/journal_vectors.py > tests/fixtures/golden/journal-vectors.json
Data are drawn from a seeded numpy RandomState, so the file is reproducible.
"""
import json
import subprocess
import sys

import numpy as np
import pandas as pd
import scipy
import sklearn
import statsmodels
from scipy import stats
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import cohens_kappa

rng = np.random.RandomState(20261201)
cases = []


def r_eval(code: str) -> list[float]:
    """Run R code that cat()s numbers separated by spaces; return them as floats (NA -> None)."""
    out = subprocess.run(["Rscript", "--vanilla", "-e", code], capture_output=True, text=True, check=True).stdout
    return [None if t == "NA" else float(t) for t in out.split()]


def r_vec(xs) -> str:
    return "c(" + ",".join("NA" if x is None else repr(float(x)) for x in xs) + ")"


def r_matrix(rows) -> str:
    flat = [x for row in rows for x in row]
    return f"matrix({r_vec(flat)}, nrow={len(rows)}, byrow=TRUE)"


R_NUM = "function(x) cat(format(x, digits=17), '\\n')"


def correlated_pair(n, levels, noise):
    truth = rng.randint(0, len(levels), size=n)
    a = np.clip(truth + rng.randint(-noise, noise + 1, size=n), 0, len(levels) - 1)
    b = np.clip(truth + rng.randint(-noise, noise + 1, size=n), 0, len(levels) - 1)
    return [levels[i] for i in a], [levels[i] for i in b]


# ---------------------------------------------------------------- Cohen's kappa
kappa_sets = [
    ("likert5_n40", *correlated_pair(40, [1, 2, 3, 4, 5], 1), [1, 2, 3, 4, 5]),
    ("likert5_gap_n30", *correlated_pair(30, [1, 2, 3, 5], 1), [1, 2, 3, 4, 5]),
    ("scale0to10_n60", *correlated_pair(60, list(range(0, 11)), 2), list(range(0, 11))),
    ("uneven_levels_n25", *correlated_pair(25, [0, 1, 2, 5, 10], 1), [0, 1, 2, 5, 10]),
]
for name, a, b, declared in kappa_sets:
    ratings = [[x, y] for x, y in zip(a, b)]
    observed = sorted(set(a) | set(b))
    for weights in ["none", "linear", "quadratic"]:
        sk_w = None if weights == "none" else weights
        sk = cohen_kappa_score(a, b, weights=sk_w)
        # statsmodels on the observed-labels table with rank weights (the sklearn convention).
        idx = {v: i for i, v in enumerate(observed)}
        table = np.zeros((len(observed), len(observed)))
        for x, y in zip(a, b):
            table[idx[x], idx[y]] += 1
        sm = cohens_kappa(table, wt=sk_w, return_results=True) if sk_w else cohens_kappa(table, return_results=True)
        cases.append({
            "id": f"cohen_kappa/{name}/{weights}/ranks",
            "metric": "cohen_kappa",
            "variant": "ranks",
            "source": f"scikit-learn {sklearn.__version__} cohen_kappa_score(weights={sk_w!r}); "
                      f"statsmodels {statsmodels.__version__} cohens_kappa(observed table, wt={sk_w!r}).std_kappa",
            "input": {"ratings": ratings, "weights": weights, "convention": "ranks"},
            "expected": {"value": float(sk), "se": float(sm.std_kappa), "ci_low": float(sm.kappa_low), "ci_high": float(sm.kappa_upp)},
            "tolerance": 1e-9,
        })
        # statsmodels on the declared scale: table over every declared level, weights = values.
        didx = {v: i for i, v in enumerate(declared)}
        dtable = np.zeros((len(declared), len(declared)))
        for x, y in zip(a, b):
            dtable[didx[x], didx[y]] += 1
        if sk_w:
            dm = cohens_kappa(dtable, weights=np.array(declared, float), wt=sk_w, return_results=True)
        else:
            dm = cohens_kappa(dtable, return_results=True)
        cases.append({
            "id": f"cohen_kappa/{name}/{weights}/scale",
            "metric": "cohen_kappa",
            "variant": "scale",
            "source": f"statsmodels {statsmodels.__version__} cohens_kappa(table over declared levels, "
                      f"weights=levels, wt={sk_w!r}): kappa, std_kappa, kappa_low/upp",
            "input": {"ratings": ratings, "weights": weights, "convention": "scale", "categories": declared},
            "expected": {"value": float(dm.kappa), "se": float(dm.std_kappa), "ci_low": float(dm.kappa_low), "ci_high": float(dm.kappa_upp)},
            "tolerance": 1e-9,
        })
    # psych::cohen.kappa unweighted interval (its variance is the same FCE formula).
    lo, est, hi = r_eval(
        f"suppressMessages(library(psych)); r <- cohen.kappa(cbind({r_vec(a)}, {r_vec(b)})); "
        f"cat(format(r$confid[1,], digits=17))"
    )
    cases.append({
        "id": f"cohen_kappa/{name}/none/psych",
        "metric": "cohen_kappa",
        "variant": "ranks",
        "source": "R psych::cohen.kappa(x)$confid['unweighted kappa', ] (alpha = .05)",
        "input": {"ratings": ratings, "weights": "none", "convention": "ranks"},
        "expected": {"value": est, "ci_low": lo, "ci_high": hi},
        "tolerance": 1e-9,
    })

# ---------------------------------------------------------------- Kendall's W
def cardiology_w(matrix: pd.DataFrame) -> float:
    # The published convention (micheledpierri/llm_cardiology_eval, 2_reliability_analysis.py):
    # rows = objects, columns = raters, average ranks, no tie correction.
    m, n = matrix.shape
    ranks = matrix.rank(axis=0)
    R = ranks.sum(axis=1)
    S = ((R - R.mean()) ** 2).sum()
    return 12 * S / (n**2 * (m**3 - m))


for name, n_obj, m_raters, top in [("ties_5x12", 12, 4, 5), ("ties_3x20", 20, 3, 5), ("noties_3x8", 8, 3, None)]:
    if top is None:
        base = rng.permutation(n_obj)
        rows = np.column_stack([base + rng.normal(0, 2, n_obj) for _ in range(m_raters)]).round(3)
    else:
        truth = rng.randint(1, top + 1, size=n_obj)
        rows = np.column_stack([np.clip(truth + rng.randint(-1, 2, size=n_obj), 1, top) for _ in range(m_raters)])
    df = pd.DataFrame(rows)
    w_unc = cardiology_w(df)
    chi_unc = m_raters * (n_obj - 1) * w_unc
    stat, p = r_eval(f"r <- friedman.test(t({r_matrix(rows.tolist())})); cat(format(c(r$statistic, r$p.value), digits=17))")
    w_cor = stat / (m_raters * (n_obj - 1))
    for corrected, w, chi, pv in [(False, w_unc, chi_unc, stats.chi2.sf(chi_unc, n_obj - 1)), (True, w_cor, stat, p)]:
        cases.append({
            "id": f"kendall_w/{name}/{'corrected' if corrected else 'uncorrected'}",
            "metric": "kendall_w",
            "variant": "corrected" if corrected else "uncorrected",
            "source": ("R friedman.test(t(ratings)) statistic / (m (n-1)), p.value" if corrected else
                       f"cardiology study formula 12S/(m^2(n^3-n)) on pandas {pd.__version__} average ranks; "
                       f"p = scipy {scipy.__version__} chi2.sf(m(n-1)W, n-1)"),
            "input": {"ratings": rows.tolist(), "tieCorrection": corrected},
            "expected": {"value": float(w), "chi_square": float(chi), "df": n_obj - 1, "p": float(pv)},
            "tolerance": 1e-9,
        })

# ---------------------------------------------------------------- Friedman
for name, n_blocks, k, top in [("ties_20x3", 20, 3, 5), ("ties_15x4", 15, 4, 10), ("continuous_10x3", 10, 3, None)]:
    if top is None:
        rows = rng.normal(0, 1, size=(n_blocks, k)).round(4) + np.array([0, 0.5, 1.0])
    else:
        rows = np.clip(rng.randint(1, top + 1, size=(n_blocks, 1)) + rng.randint(-1, 3, size=(n_blocks, k)), 1, top)
    stat, p = r_eval(f"r <- friedman.test({r_matrix(rows.tolist())}); cat(format(c(r$statistic, r$p.value), digits=17))")
    cases.append({
        "id": f"friedman/{name}",
        "metric": "friedman",
        "source": "R friedman.test(y): statistic, p.value",
        "input": {"ratings": rows.tolist()},
        "expected": {"chi_square": stat, "p": p, "df": k - 1},
        "tolerance": 1e-9,
    })

# ---------------------------------------------------------------- Wilcoxon signed-rank
wsets = []
x = rng.normal(0, 1, 15).round(3); y = (x + rng.normal(0.4, 1, 15)).round(3)
wsets.append(("exact_n15", x.tolist(), y.tolist()))
x = rng.randint(0, 11, 30); y = np.clip(x + rng.randint(-2, 4, 30), 0, 10)
wsets.append(("ties_zeros_n30", x.tolist(), y.tolist()))
x = rng.normal(0, 1, 60).round(4); y = (x + rng.normal(0.2, 1, 60)).round(4)
wsets.append(("normal_n60", x.tolist(), y.tolist()))
x = rng.randint(1, 6, 12); y = x.copy(); y[:3] += 1
wsets.append(("three_nonzero", x.tolist(), y.tolist()))
for name, x, y in wsets:
    v, p = r_eval(f"r <- suppressWarnings(wilcox.test({r_vec(x)}, {r_vec(y)}, paired=TRUE)); "
                  f"cat(format(c(r$statistic, r$p.value), digits=17))")
    sp = stats.wilcoxon(x, y)
    cases.append({
        "id": f"wilcoxon/{name}",
        "metric": "wilcoxon",
        "source": f"R wilcox.test(x, y, paired = TRUE) V and p.value; scipy {scipy.__version__} wilcoxon(x, y).statistic",
        "input": {"x": x, "y": y},
        "expected": {"statistic": v, "p": p, "min_statistic": float(sp.statistic)},
        "tolerance": 1e-9,
    })

# ---------------------------------------------------------------- p.adjust
for name, ps in [("mixed", [0.01, 0.04, 0.03, 0.005, 0.2, 0.04]), ("with_na", [0.02, None, 0.001, 0.5, 0.049]),
                 ("large", [0.9, 0.8, 0.95])]:
    for method in ["holm", "BH"]:
        adj = r_eval(f"cat(format(p.adjust({r_vec(ps)}, method='{method}'), digits=17))")
        cases.append({
            "id": f"p_adjust/{name}/{method}",
            "metric": "p_adjust",
            "variant": method,
            "source": f"R p.adjust(p, method = '{method}')",
            "input": {"p": ps},
            "expected": {"values": adj},
            "tolerance": 1e-12,
        })

# ---------------------------------------------------------------- descriptives
for name, xs in [("scores_n17", rng.randint(0, 51, 17).tolist()), ("with_missing", [3, None, 1, 4, 1, 5, 9, 2, 6]),
                 ("two", [2.5, 7.0]), ("one", [4])]:
    vals = r_eval(f"x <- {r_vec(xs)}; cat(format(c(length(na.omit(x)), mean(x, na.rm=TRUE), sd(x, na.rm=TRUE), "
                  f"quantile(x, c(.5,.25,.75), type=7, na.rm=TRUE), IQR(x, na.rm=TRUE, type=7)), digits=17))")
    n, mean, sd, med, q1, q3, iqr = vals
    cases.append({
        "id": f"descriptives/{name}",
        "metric": "descriptives",
        "source": "R length, mean, sd, quantile(type = 7), IQR(type = 7)",
        "input": {"x": xs},
        "expected": {"n": n, "mean": mean, "sd": sd, "median": med, "q1": q1, "q3": q3, "iqr": iqr},
        "tolerance": 1e-12,
    })

json.dump(cases, sys.stdout, indent=1)
sys.stdout.write("\n")
