/**
 * The bootstrap of every Cliff's delta interval Clingrade shows (dashboard) or
 * exports (summary), unless a caller asks for another. A module of its own, with
 * no imports, so the exports page's client code can name it too.
 */
export const CLIFFS_BOOTSTRAP = { resamples: 1000, seed: 20261130 } as const;
