/**
 * The two readings of a judge's score and its confidence (paper 002, "Two
 * readings of Jev's ordinal scores" and "Deferral and hybrid").
 *
 * With a probability per level, a judgment has two readings from the same
 * output: the most probable level (ties to the lower level) and the expected
 * score (sum of level x probability). Agreement and exact / within-one
 * analyses use the expected score rounded half-up; rank and correlation
 * analyses use it unrounded.
 */

/** Levels in the scale's order with their probabilities. */
export interface LevelProbability<L extends number | string = number | string> {
  level: L;
  p: number;
}

/** The most probable level; a tie goes to the level listed first (the lower one on an ordinal scale). */
export function mostProbableLevel<L extends number | string>(dist: ReadonlyArray<LevelProbability<L>>): L | null {
  let best: LevelProbability<L> | null = null;
  for (const d of dist) if (best === null || d.p > best.p) best = d;
  return best === null ? null : best.level;
}

/** Sum of level x probability (ordinal levels only). */
export function expectedScore(dist: ReadonlyArray<LevelProbability<number>>): number | null {
  if (dist.length === 0) return null;
  return dist.reduce((s, d) => s + d.level * d.p, 0);
}

/** Half-up rounding, as the paper's AC2 and exact-agreement analyses of the expected score (2.5 -> 3, -2.5 -> -2). */
export function roundHalfUp(x: number): number {
  // The epsilon keeps 2.4999999999999996 (a sum of probabilities) from rounding down.
  return Math.floor(x + 0.5 + 1e-9);
}

/**
 * Confidence from probabilities: |2p - 1| on a two-level scale (p either
 * level's probability), the largest probability otherwise.
 */
export function probabilityConfidence(dist: ReadonlyArray<LevelProbability>): number | null {
  if (dist.length === 0) return null;
  if (dist.length === 2) return Math.abs(2 * dist[1].p - 1);
  return Math.max(...dist.map((d) => d.p));
}

/**
 * Confidence from several samples of the same judgment, when the judge gives
 * no probabilities: for an ordinal scale one minus the samples' range over the
 * scale's range (all equal: 1; the two ends: 0); for a nominal scale the share
 * of samples on the most frequent value. Null with fewer than two samples.
 */
export function sampleConfidence(samples: ReadonlyArray<number | string>, scale: { min: number; max: number } | null): number | null {
  if (samples.length < 2) return null;
  if (scale) {
    const xs = samples as number[];
    const span = scale.max - scale.min;
    if (span <= 0) return 1;
    return 1 - (Math.max(...xs) - Math.min(...xs)) / span;
  }
  const counts = new Map<number | string, number>();
  for (const s of samples) counts.set(s, (counts.get(s) ?? 0) + 1);
  return Math.max(...counts.values()) / samples.length;
}

/** The most frequent sample; ties go to the lower value (ordinal) or the first seen (nominal). */
export function modalSample<L extends number | string>(samples: ReadonlyArray<L>, order?: ReadonlyArray<L>): L | null {
  if (samples.length === 0) return null;
  const counts = new Map<L, number>();
  for (const s of samples) counts.set(s, (counts.get(s) ?? 0) + 1);
  const levels = order ?? [...counts.keys()];
  return mostProbableLevel(levels.filter((l) => counts.has(l)).map((level) => ({ level, p: counts.get(level)! })));
}

/** The mean of ordinal samples: the expected score of their empirical distribution. */
export function sampleMean(samples: ReadonlyArray<number>): number | null {
  return samples.length ? samples.reduce((a, b) => a + b, 0) / samples.length : null;
}
