# Golden vectors for Spearman's rho with its Fisher-z interval (lib/stats/rank-correlation.ts).
#   Rscript scripts/golden/spearman_ci.R > tests/fixtures/golden/spearman-ci-vectors.json
# rho: R cor.test(method = "spearman") (ties: average ranks; exact = FALSE so ties do not warn).
# CI: tanh(atanh(rho) -/+ qnorm(1 - (1 - level)/2) * se), two standard errors:
#   bonett_wright = sqrt((1 + rho^2/2) / (n - 3))  (the one the app uses)
#   fisher        = 1 / sqrt(n - 3)                 (Pearson's; kept to show they differ)
# Percentile ranks: (rank(x, ties = "average") - 1) / (n - 1), for rankDisagreements.
suppressMessages(library(jsonlite))
set.seed(20261205)

ci <- function(r, n, level, se) {
  if (n < 4) return(NULL)
  q <- qnorm(1 - (1 - level) / 2)
  c(tanh(atanh(r) - q * se), tanh(atanh(r) + q * se))
}

one <- function(name, x, y, level = 0.95) {
  ok <- !is.na(x) & !is.na(y)
  n <- sum(ok)
  r <- unname(suppressWarnings(cor.test(x[ok], y[ok], method = "spearman", exact = FALSE))$estimate)
  list(
    name = name, level = level,
    x = lapply(x, function(v) if (is.na(v)) NULL else v),
    y = lapply(y, function(v) if (is.na(v)) NULL else v),
    expected = list(
      rho = r, n = n,
      ci_bonett_wright = ci(r, n, level, sqrt((1 + r^2 / 2) / (n - 3))),
      ci_fisher = ci(r, n, level, 1 / sqrt(n - 3)),
      x_percentile = (rank(x[ok], ties.method = "average") - 1) / (n - 1),
      y_percentile = (rank(y[ok], ties.method = "average") - 1) / (n - 1)
    ),
    source = paste0(R.version.string, ": cor.test(method = 'spearman'), qnorm, rank(ties = 'average')")
  )
}

cases <- list()
add <- function(...) cases[[length(cases) + 1]] <<- one(...)

# Hand-checkable: perfect monotone, reversed, and a small textbook pair.
add("monotone n=5", c(0.1, 0.2, 0.3, 0.4, 0.5), c(1, 2, 3, 4, 5))
add("reversed n=6", c(6, 5, 4, 3, 2, 1), c(1, 2, 3, 4, 5, 6))
add("four pairs", c(0.9, 0.1, 0.4, 0.7), c(2, 1, 4, 3))
# Likert expert scores (heavy ties) against a continuous metric.
for (n in c(8, 15, 30, 120)) {
  m <- runif(n)
  s <- pmin(5, pmax(1, round(1 + 4 * m + rnorm(n, 0, 1.2))))
  add(paste0("metric vs likert n=", n), m, s)
}
# Ties on both sides; a 0/1 dimension; means of three graders (thirds).
add("ties both sides", c(0, 0, 0.2, 0.2, 0.5, 0.5, 0.5, 1, 1, 1), c(3, 3, 4, 2, 5, 5, 4, 5, 4, 5))
add("binary dimension", c(0.12, 0.5, 0.33, 0.8, 0.05, 0.6, 0.41, 0.9, 0.2), c(0, 1, 0, 1, 0, 1, 1, 1, 0))
g <- round(runif(40, 1, 5) * 3) / 3
add("graders' means n=40", runif(40) * 0.3, g)
# Missing values dropped pairwise.
add("missing pairs", c(0.3, NA, 0.5, 0.9, 0.1, 0.7, 0.2, NA), c(4, 5, NA, 5, 2, 4, 1, 3))
# Negative association, and a near-zero one, at 90%.
x <- runif(25); add("negative n=25", x, -x + rnorm(25, 0, 0.3))
x <- runif(50); add("independent n=50 at 90%", x, runif(50), 0.90)

cat(toJSON(cases, auto_unbox = TRUE, digits = NA, null = "null", pretty = TRUE))
cat("\n")
