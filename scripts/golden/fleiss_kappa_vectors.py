#!/usr/bin/python3
"""Golden vectors for the planner's Fleiss' kappa target (lib/stats/planner-kappa.ts, issue #36).

The planner takes the large-sample (delta-method) variance of Fleiss' kappa under the common
correlation model of Fleiss (1971) / Fleiss, Nee & Landis (1979): for each set, with probability
kappa all m graders choose one category (category j with probability p_j), otherwise each
grader chooses independently by p. Pairwise agreement is then kappa + (1 - kappa) sum p_j^2, so
Fleiss' kappa estimates kappa.

Independent of the TypeScript here:
  1. the per-set moments by brute force: every count vector of m graders over c categories is
     enumerated with its probability (the TS uses closed-form factorial moments of the
     multinomial), then the same delta method (numerical gradient here, analytic in TS);
  2. the sampling SD of statsmodels' fleiss_kappa on 4,000 simulated studies of the planned
     size (numpy's generator), with its Monte Carlo standard error SD / sqrt(2 (R - 1)).
Two graders on a yes/no item must reduce to Bloch & Kraemer (1989).
Run: /usr/bin/python3 scripts/golden/fleiss_kappa_vectors.py > tests/fixtures/golden/planner-kappa-vectors.json
"""
import itertools, json, math
import numpy as np
from scipy.stats import multinomial, norm
from statsmodels.stats.inter_rater import fleiss_kappa

def compositions(m, c):
    for cut in itertools.combinations(range(m + c - 1), c - 1):
        parts, prev = [], -1
        for x in cut + (m + c - 1,):
            parts.append(x - prev - 1); prev = x
        yield parts

def unit_variance(kappa, p, m):
    """n x Var(kappa_hat) by enumeration of the per-set count vectors and a numerical gradient."""
    c = len(p)
    vs, ws = [], []
    for counts in compositions(m, c):
        w = (1 - kappa) * multinomial.pmf(counts, m, p)
        if max(counts) == m: w += kappa * p[counts.index(m)]
        a = sum(k * (k - 1) for k in counts) / (m * (m - 1))
        vs.append([a] + [k / m for k in counts]); ws.append(w)
    v, w = np.array(vs), np.array(ws)
    mu = w @ v
    cov = (v - mu).T @ ((v - mu) * w[:, None])
    def f(x):
        pe = sum(x[1:] ** 2)
        return (x[0] - pe) / (1 - pe)
    grad = np.array([(f(mu + h) - f(mu - h)) / 2e-7 for h in np.eye(c + 1) * 1e-7])
    return float(grad @ cov @ grad), float(f(mu))

def simulate(kappa, p, m, n, reps, rng):
    c = len(p)
    est = []
    for _ in range(reps):
        same = rng.random(n) < kappa
        cat = rng.choice(c, size=n, p=p)
        table = rng.multinomial(m, p, size=n)
        table[same] = 0
        table[same, cat[same]] = m
        est.append(fleiss_kappa(table, method="fleiss"))
    est = np.array(est)
    sd = float(est.std(ddof=1))
    return sd, sd / math.sqrt(2 * (reps - 1)), float(est.mean())

z = norm.ppf(0.975)
rng = np.random.default_rng(3601)
cases = []
for kappa, p, m, w in [
    (0.6, [0.3, 0.7], 2, 0.2),
    (0.6, [0.3, 0.7], 4, 0.2),
    (0.5, [0.2, 0.5, 0.3], 3, 0.2),
    (0.7, [0.25, 0.25, 0.25, 0.25], 5, 0.15),
    (0.4, [0.1, 0.2, 0.3, 0.4], 3, 0.25),
    (0.8, [0.5, 0.3, 0.2], 6, 0.1),
]:
    uv, mean_kappa = unit_variance(kappa, p, m)
    unrounded = 4 * z * z * uv / w ** 2
    n = math.ceil(unrounded)
    sd, sd_se, sim_mean = simulate(kappa, p, m, n, 4000, rng)
    cases.append({"kappa": kappa, "proportions": p, "graders": m, "ciWidth": w, "unitVariance": uv, "modelKappa": mean_kappa,
                  "unrounded": unrounded, "sets": n, "simulated": {"replicates": 4000, "sd": sd, "sdMonteCarloSE": sd_se, "meanKappa": sim_mean, "width": 2 * z * sd}})
# Bloch & Kraemer (1989): two graders, yes/no, n Var = (1-k)[(1-k)(1-2k) + k(2-k)/(2p(1-p))].
bk = []
for kappa, prev in [(0.6, 0.3), (0.4, 0.1), (0.8, 0.5)]:
    uv, _ = unit_variance(kappa, [prev, 1 - prev], 2)
    bk.append({"kappa": kappa, "prevalence": prev, "unitVariance": uv, "blochKraemer": (1 - kappa) * ((1 - kappa) * (1 - 2 * kappa) + kappa * (2 - kappa) / (2 * prev * (1 - prev)))})
print(json.dumps({"generatedBy": "scripts/golden/fleiss_kappa_vectors.py", "cases": cases, "blochKraemer": bk}, indent=1))
