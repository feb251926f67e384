#!/usr/bin/python3
"""Golden vectors for lib/stats/grader-quality.ts's clusteredMean (issue #35): the mean of
observations grouped in clusters with a cluster-robust 95% interval, from statsmodels' OLS of the
observations on an intercept with cov_type="cluster" (use_t: t with G-1 df). With equal cluster
sizes it must equal scipy's t-interval over the per-cluster means, which the script checks.
Run: /usr/bin/python3 scripts/golden/grader_quality_vectors.py > tests/fixtures/golden/grader-quality-vectors.json
"""
import json
import numpy as np
import statsmodels.api as sm
from scipy import stats

rng = np.random.default_rng(20261205)
cases = []

def case(name, groups):
    y = np.concatenate([np.asarray(g, float) for g in groups])
    cl = np.concatenate([np.full(len(g), i) for i, g in enumerate(groups)])
    fit = sm.OLS(y, np.ones((len(y), 1))).fit(cov_type="cluster", cov_kwds={"groups": cl}, use_t=True)
    lo, hi = fit.conf_int(0.05)[0]
    cases.append({"name": name, "groups": [list(map(float, g)) for g in groups],
                  "estimate": float(fit.params[0]), "se": float(fit.bse[0]), "ci": [float(lo), float(hi)]})
    if len({len(g) for g in groups}) == 1:
        means = np.array([np.mean(g) for g in groups])
        t_lo, t_hi = stats.t.interval(0.95, len(means) - 1, loc=means.mean(), scale=stats.sem(means))
        assert abs(t_lo - lo) < 1e-9 and abs(t_hi - hi) < 1e-9

case("equal sizes", [[1, 0.5], [0, 1], [1.5, 1], [0.5, 0.5]])
case("unequal sizes", [[1], [0, 1, -1], [2, 1.5], [0.5, 0.5, 0, 1], [-0.5]])
case("two clusters", [[1, 2, 3], [0]])
case("random 40 sets", [list(np.round(rng.normal(0.8, 1, rng.integers(1, 7)) * 2) / 2) for _ in range(40)])
case("random 12 sets, half-points", [list(np.round(rng.normal(-0.3, 0.7, rng.integers(2, 5)) * 2) / 2) for _ in range(12)])
print(json.dumps({"source": "statsmodels OLS cov_type=cluster, use_t", "cases": cases}, indent=1))
