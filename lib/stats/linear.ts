/**
 * Small dense linear algebra for maximum-likelihood fits (Newton steps, observed information).
 * Matrices here are a few dozen rows at most (one per model), so Gauss-Jordan with partial
 * pivoting is exact enough and needs no dependency.
 */

/** Inverse of a square matrix, or null when it is singular to working precision. */
export function invert(matrix: ReadonlyArray<ReadonlyArray<number>>): number[][] | null {
  const n = matrix.length;
  const a = matrix.map((row, i) => {
    const out = new Array<number>(2 * n).fill(0);
    for (let j = 0; j < n; j++) out[j] = row[j];
    out[n + i] = 1;
    return out;
  });
  let scale = 0;
  for (const row of matrix) for (const v of row) scale = Math.max(scale, Math.abs(v));
  const tiny = (scale || 1) * 1e-13;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
    if (Math.abs(a[pivot][col]) <= tiny) return null;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    const p = a[col][col];
    for (let j = 0; j < 2 * n; j++) a[col][j] /= p;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = a[r][col];
      if (f === 0) continue;
      for (let j = 0; j < 2 * n; j++) a[r][j] -= f * a[col][j];
    }
  }
  return a.map((row) => row.slice(n));
}

/** matrix x vector */
export function multiply(matrix: ReadonlyArray<ReadonlyArray<number>>, vector: ReadonlyArray<number>): number[] {
  return matrix.map((row) => row.reduce((s, v, j) => s + v * vector[j], 0));
}
