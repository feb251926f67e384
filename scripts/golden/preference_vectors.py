#!/usr/bin/python3
"""Golden vectors for lib/stats/bradley-terry.ts and lib/stats/preference.ts (issue #34).

Plain Bradley-Terry: R's BradleyTerry2 (BTm on win counts, first model the reference), then
centred (log-strengths minus their mean, covariance M C M'). Davidson with ties: an independent
fit written here with scipy (BFGS on the likelihood parametrised by k-1 free log-strengths with
the last = -sum of the others, then a Newton polish; standard errors from statsmodels' numerical
Hessian). The plain cases are fitted here too and must agree with R.
Wilson intervals: statsmodels proportion_confint(method="wilson"); binomial test: scipy binomtest.
Run: /usr/bin/python3 scripts/golden/preference_vectors.py > tests/fixtures/golden/preference-vectors.json
"""
import json, subprocess, tempfile, os
import numpy as np
from scipy.optimize import minimize
from scipy.stats import binomtest
from statsmodels.stats.proportion import proportion_confint
from statsmodels.tools.numdiff import approx_hess3

rng = np.random.default_rng(20261205)

def simulate(k, pairs_per, strengths, nu):
    wins = np.zeros((k, k), dtype=int); ties = np.zeros((k, k), dtype=int)
    for i in range(k):
        for j in range(i + 1, k):
            n = pairs_per if np.isscalar(pairs_per) else pairs_per[i][j]
            if n == 0: continue
            pi, pj = np.exp(strengths[i]), np.exp(strengths[j])
            t = nu * np.sqrt(pi * pj)
            d = pi + pj + t
            draws = rng.multinomial(n, [pi / d, pj / d, t / d])
            wins[i, j] += draws[0]; wins[j, i] += draws[1]
            ties[i, j] += draws[2]; ties[j, i] += draws[2]
    return wins, ties

def negll(free, wins, ties, davidson):
    k = wins.shape[0]
    theta = np.append(free[:k - 1], -np.sum(free[:k - 1]))
    lam = free[k - 1] if davidson else -np.inf
    ll = 0.0
    for i in range(k):
        for j in range(i + 1, k):
            a, b = theta[i], theta[j]
            terms = [a, b] + ([lam + (a + b) / 2] if davidson else [])
            logd = np.logaddexp.reduce(terms)
            ll += wins[i, j] * (a - logd) + wins[j, i] * (b - logd)
            if davidson and ties[i, j] > 0: ll += ties[i, j] * (lam + (a + b) / 2 - logd)
    return -ll

def fit_python(wins, ties, davidson):
    k = wins.shape[0]
    dim = k - 1 + (1 if davidson else 0)
    x0 = np.zeros(dim)
    res = minimize(negll, x0, args=(wins, ties, davidson), method="BFGS", options={"gtol": 1e-12, "maxiter": 10000})
    x = res.x
    for _ in range(50):  # Newton polish on the numerical derivatives
        h = approx_hess3(x, negll, args=(wins, ties, davidson))
        eps = 1e-6
        g = np.array([(negll(x + eps * e, wins, ties, davidson) - negll(x - eps * e, wins, ties, davidson)) / (2 * eps) for e in np.eye(dim)])
        step = np.linalg.solve(h, g)
        x = x - step
        if np.max(np.abs(step)) < 1e-11: break
    h = approx_hess3(x, negll, args=(wins, ties, davidson))
    cov_free = np.linalg.inv(h)
    # theta = A free, A maps k-1 free values to k centred values (last = -sum): already centred.
    A = np.vstack([np.eye(k - 1), -np.ones((1, k - 1))])
    cov_theta = A @ cov_free[:k - 1, :k - 1] @ A.T
    theta = A @ x[:k - 1]
    out = {"logStrength": theta.tolist(), "se": np.sqrt(np.diag(cov_theta)).tolist(), "logLikelihood": -negll(x, wins, ties, davidson)}
    if davidson:
        nu = float(np.exp(x[k - 1])); out["nu"] = nu; out["nuSE"] = nu * float(np.sqrt(cov_free[k - 1, k - 1]))
    return out

def fit_r(wins):
    k = wins.shape[0]
    rows = []
    for i in range(k):
        for j in range(i + 1, k):
            if wins[i, j] + wins[j, i] > 0: rows.append(f"m{i+1},m{j+1},{wins[i,j]},{wins[j,i]}")
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
        f.write("p1,p2,w1,w2\n" + "\n".join(rows) + "\n"); path = f.name
    levels = ",".join(f'"m{i+1}"' for i in range(k))
    script = f"""
suppressMessages(library(BradleyTerry2))
d <- read.csv("{path}")
lv <- c({levels})
d$p1 <- factor(d$p1, levels = lv); d$p2 <- factor(d$p2, levels = lv)
m <- BTm(cbind(w1, w2), p1, p2, data = d, control = glm.control(epsilon = 1e-14, maxit = 100))
b <- c(0, coef(m)); V <- matrix(0, {k}, {k}); V[-1, -1] <- vcov(m)
M <- diag({k}) - matrix(1 / {k}, {k}, {k})
C <- M %*% V %*% t(M)
cat(sprintf("%.15g", b - mean(b)), "\\n"); cat(sprintf("%.15g", sqrt(diag(C))), "\\n"); cat(sprintf("%.15g", as.numeric(logLik(m))), "\\n")
"""
    out = subprocess.run(["Rscript", "-e", script], capture_output=True, text=True, check=True).stdout.strip().split("\n")
    os.unlink(path)
    return {"logStrength": [float(v) for v in out[0].split()], "se": [float(v) for v in out[1].split()]}

cases = []
def add(name, wins, ties, davidson):
    case = {"kind": "bt", "name": name, "wins": wins.tolist(), "ties": ties.tolist(), "model": "davidson" if davidson else "plain"}
    py = fit_python(wins, ties, davidson)
    case["expected"] = py
    if not davidson:
        r = fit_r(wins)
        assert np.allclose(r["logStrength"], py["logStrength"], atol=1e-6), (name, r, py)
        assert np.allclose(r["se"], py["se"], atol=1e-5), (name, r, py)
        case["expected"]["logStrength"] = r["logStrength"]; case["expected"]["se"] = r["se"]
        case["reference"] = "R BradleyTerry2::BTm, centred (checked against the scipy fit)"
    else:
        case["reference"] = "scipy BFGS + Newton polish on the Davidson likelihood, statsmodels numerical Hessian"
    cases.append(case)

w, t = simulate(3, 40, [0.6, 0.0, -0.6], 0.0); add("three models, 40 per pair, no ties", w, t, False)
w, t = simulate(4, [[0, 30, 0, 12], [0, 0, 25, 0], [0, 0, 0, 18], [0, 0, 0, 0]], [1.0, 0.3, -0.2, -1.1], 0.0); add("four models, incomplete design", w, t, False)
w, t = simulate(6, 25, [0.9, 0.5, 0.2, 0.0, -0.4, -1.2], 0.0); add("six models, 25 per pair", w, t, False)
w, t = simulate(3, 50, [0.5, 0.0, -0.5], 0.6); add("three models with ties", w, t, True)
w, t = simulate(5, 30, [0.8, 0.4, 0.0, -0.3, -0.9], 1.2); add("five models, many ties", w, t, True)
w, t = simulate(4, [[0, 40, 10, 0], [0, 0, 35, 15], [0, 0, 0, 20], [0, 0, 0, 0]], [0.2, 0.1, -0.1, -0.2], 0.3); add("four models, incomplete, few ties", w, t, True)
w = np.array([[0, 3, 2], [1, 0, 2], [2, 1, 0]]); t = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]); add("small counts by hand", w, t, True)

for (k, n) in [(0, 10), (3, 10), (5, 10), (10, 10), (7, 20), (52, 100), (61, 100), (1, 1), (480, 1000), (1, 30)]:
    lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
    lo90, hi90 = proportion_confint(k, n, alpha=0.10, method="wilson")
    cases.append({"kind": "proportion", "name": f"{k} of {n}", "successes": k, "n": n,
                  "wilson95": [lo, hi], "wilson90": [lo90, hi90], "binomialP": binomtest(k, n, 0.5).pvalue,
                  "binomialP03": binomtest(k, n, 0.3).pvalue})

print(json.dumps({"generatedBy": "scripts/golden/preference_vectors.py", "cases": cases}, indent=1))
