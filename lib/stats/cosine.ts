/**
 * Cosine similarity of two vectors: a·b / (|a| |b|), in float64, clamped to [-1, 1] (rounding
 * can leave it a hair outside). Null when either vector is all zeros: the angle is undefined,
 * and 0 would read as "unrelated". Vectors of different lengths, empty vectors and non-finite
 * components are errors of the caller (an embeddings reply that is not what it claims to be).
 */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number | null {
  if (a.length !== b.length) throw new RangeError(`vectors of different lengths (${a.length} and ${b.length})`);
  if (a.length === 0) throw new RangeError("empty vectors");
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new RangeError(`a component that is not a finite number at ${i}`);
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na === 0 || nb === 0) return null;
  // sqrt of each norm separately: their product cannot overflow where na * nb could.
  const c = dot / (Math.sqrt(na) * Math.sqrt(nb));
  return Math.max(-1, Math.min(1, c));
}
