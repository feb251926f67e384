/** Values the protocol's contract and its form share (no zod or registry in the browser bundle). */
export const MULTIPLICITY = ["holm", "bonferroni", "hochberg", "BH", "none"] as const;
