import type { Degenerate, Rating } from "./types";

/**
 * Kendall's tau-b between two rankings (ties in either adjusted for), as
 * scipy.stats.kendalltau's default: the ranking of the models by a judge's
 * mean score against the ranking by the panel's. O(n^2): n is the number of
 * models. Pairs with a missing value are left out.
 */
export interface KendallTauResult extends Degenerate {
  tau: number | null;
  n: number;
}

export function kendallTau(x: ReadonlyArray<Rating>, y: ReadonlyArray<Rating>): KendallTauResult {
  if (x.length !== y.length) return { tau: null, n: 0, reason: `x and y must be paired (lengths ${x.length} and ${y.length})` };
  const pairs: [number, number][] = [];
  for (let i = 0; i < x.length; i++) {
    const a = x[i];
    const b = y[i];
    if (typeof a === "number" && typeof b === "number" && Number.isFinite(a) && Number.isFinite(b)) pairs.push([a, b]);
  }
  const n = pairs.length;
  if (n < 2) return { tau: null, n, reason: "fewer than two units" };
  let concordant = 0;
  let discordant = 0;
  let tiesX = 0;
  let tiesY = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign(pairs[i][0] - pairs[j][0]);
      const dy = Math.sign(pairs[i][1] - pairs[j][1]);
      if (dx === 0 && dy === 0) continue;
      if (dx === 0) tiesX++;
      else if (dy === 0) tiesY++;
      else if (dx === dy) concordant++;
      else discordant++;
    }
  }
  const denom = Math.sqrt((concordant + discordant + tiesX) * (concordant + discordant + tiesY));
  if (denom === 0) return { tau: null, n, reason: "one of the rankings has every unit tied" };
  return { tau: (concordant - discordant) / denom, n };
}
