# Golden vectors for lib/stats/g-study.ts (issue #36): balanced (p:q) x r and r:(p:q) data
# simulated here, variance components by REML with lme4 (equal to the ANOVA estimators on
# balanced data when none is negative; cases with a negative ANOVA estimate are re-drawn).
# Run: Rscript scripts/golden/g_study_vectors.R > tests/fixtures/golden/g-study-vectors.json
suppressMessages({ library(lme4); library(jsonlite) })
set.seed(2026)
sim <- function(nq, np, nr, s, crossed) {
  d <- expand.grid(r = 1:nr, p = 1:np, q = 1:nq)
  eq <- rnorm(nq, 0, sqrt(s["q"])); epq <- matrix(rnorm(nq * np, 0, sqrt(s["pq"])), nq)
  if (crossed) { er <- rnorm(nr, 0, sqrt(s["r"])); eqr <- matrix(rnorm(nq * nr, 0, sqrt(s["qr"])), nq) }
  d$y <- round(3 + eq[d$q] + epq[cbind(d$q, d$p)] + (if (crossed) er[d$r] + eqr[cbind(d$q, d$r)] else 0) + rnorm(nrow(d), 0, sqrt(s["e"])), 6)
  d$q <- factor(d$q); d$p <- factor(d$p); d$r <- factor(d$r)
  d
}
cases <- list()
specs <- list(
  list(name = "crossed 8 questions x 6 answers x 3 graders", nq = 8, np = 6, nr = 3, crossed = TRUE, s = c(q = 0.5, pq = 1.0, r = 0.3, qr = 0.2, e = 0.6)),
  list(name = "crossed 12 x 4 x 2", nq = 12, np = 4, nr = 2, crossed = TRUE, s = c(q = 0.8, pq = 0.6, r = 0.4, qr = 0.3, e = 0.4)),
  list(name = "nested 10 x 6 x 2", nq = 10, np = 6, nr = 2, crossed = FALSE, s = c(q = 0.4, pq = 0.9, e = 0.7)),
  list(name = "nested 6 x 9 x 3", nq = 6, np = 9, nr = 3, crossed = FALSE, s = c(q = 1.0, pq = 0.5, e = 0.5))
)
for (sp in specs) {
  repeat {
    d <- sim(sp$nq, sp$np, sp$nr, sp$s, sp$crossed)
    if (sp$crossed) {
      m <- lmer(y ~ 1 + (1 | q) + (1 | q:p) + (1 | r) + (1 | q:r), data = d, REML = TRUE, control = lmerControl(optimizer = "bobyqa", optCtrl = list(maxfun = 1e5)))
      vc <- as.data.frame(VarCorr(m))
      get <- function(g) vc$vcov[vc$grp == g]
      comps <- list("q" = get("q"), "p:q" = get("q:p"), "r" = get("r"), "qr" = get("q:r"), "pr:q,e" = get("Residual"))
    } else {
      m <- lmer(y ~ 1 + (1 | q) + (1 | q:p), data = d, REML = TRUE)
      vc <- as.data.frame(VarCorr(m))
      get <- function(g) vc$vcov[vc$grp == g]
      comps <- list("q" = get("q"), "p:q" = get("q:p"), "r:p:q,e" = get("Residual"))
    }
    if (all(unlist(comps) > 1e-3)) break
  }
  scores <- lapply(1:sp$nq, function(qq) lapply(1:sp$np, function(pp) d$y[d$q == qq & d$p == pp][order(d$r[d$q == qq & d$p == pp])]))
  cases[[length(cases) + 1]] <- list(name = sp$name, design = if (sp$crossed) "crossed" else "nested", scores = scores, components = comps)
}
cat(toJSON(list(generatedBy = "scripts/golden/g_study_vectors.R", reference = "lme4::lmer REML on balanced data", cases = cases), auto_unbox = TRUE, digits = NA))
