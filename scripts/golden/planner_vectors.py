#!/usr/bin/python3
"""Golden vectors for lib/stats/planner.ts (issue #36).

ICC and alpha sample sizes: the formulas written again here from Bonett (2002) and Bonett &
Wright (2015), plus the published examples (Bonett's 19.2 for k=4, rho=.85, w=.2; 349 for
alpha .7, k=5, w=.1 as the presize R package documents). WMW power: scipy's mannwhitneyu
(asymptotic, no continuity correction) on 20,000 simulated studies per case (numpy's generator,
so independent of the TS simulation's random numbers).
Run: /usr/bin/python3 scripts/golden/planner_vectors.py > tests/fixtures/golden/planner-vectors.json
"""
import json, math
import numpy as np
from scipy.stats import norm, mannwhitneyu

def icc_n(rho, k, w, level=0.95):
    z = norm.ppf(1 - (1 - level) / 2)
    n = 8 * z**2 * (1 - rho)**2 * (1 + (k - 1) * rho)**2 / (k * (k - 1) * w**2) + 1
    if k == 2 and rho >= 0.7: n += 5 * rho
    return n

def alpha_n(rho, k, w, level=0.95):
    z = norm.ppf(1 - (1 - level) / 2)
    n0 = math.ceil(8 * k / (k - 1) * (1 - rho)**2 * (z / w)**2 + 2)
    b = math.log(n0 / (n0 - 1))
    half = z * math.sqrt(2 * k / ((k - 1) * (n0 - 2)))
    lo = 1 - math.exp(math.log(1 - rho) - b + half)
    hi = 1 - math.exp(math.log(1 - rho) - b - half)
    return math.ceil((n0 - 2) * ((hi - lo) / w)**2 + 2)

cases = {"icc": [], "alpha": [], "wmw": []}
for rho, k, w in [(0.85, 4, 0.2), (0.8, 2, 0.2), (0.6, 2, 0.3), (0.7, 3, 0.2), (0.5, 5, 0.25), (0.9, 2, 0.1)]:
    cases["icc"].append({"rho": rho, "graders": k, "ciWidth": w, "unrounded": icc_n(rho, k, w), "sets": math.ceil(icc_n(rho, k, w))})
for rho, k, w in [(0.7, 5, 0.1), (0.8, 5, 0.2), (0.75, 3, 0.15), (0.6, 7, 0.2)]:
    cases["alpha"].append({"rho": rho, "items": k, "ciWidth": w, "sets": alpha_n(rho, k, w)})
rng = np.random.default_rng(36)
for n, shift in [(20, 0.8), (40, 0.5), (64, 0.5), (100, 0.3), (15, 1.2)]:
    reps = 20000
    hits = 0
    for _ in range(reps):
        x = rng.standard_normal(n); y = rng.standard_normal(n) + shift
        if mannwhitneyu(x, y, alternative="two-sided", use_continuity=False, method="asymptotic").pvalue < 0.05: hits += 1
    p = hits / reps
    cases["wmw"].append({"n": n, "shift": shift, "power": p, "monteCarloSE": math.sqrt(p * (1 - p) / reps), "replicates": reps})
print(json.dumps({"generatedBy": "scripts/golden/planner_vectors.py", "published": {"bonett2002Icc": 19.2, "bonettWrightAlpha": 349}, **cases}, indent=1))
