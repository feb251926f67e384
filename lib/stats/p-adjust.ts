/**
 * Multiplicity adjustment of p values, as R `p.adjust`: missing p values stay missing and do
 * not count in the family size m.
 *   holm: p_(i) * (m - i + 1), cumulative maximum in ascending order, capped at 1
 *   BH:   p_(i) * m / i, cumulative minimum from the largest down, capped at 1
 */
export type PAdjustMethod = "none" | "holm" | "BH";

export function pAdjust(p: ReadonlyArray<number | null | undefined>, method: PAdjustMethod): (number | null)[] {
  const out: (number | null)[] = p.map((x) => (typeof x === "number" && Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : null));
  const idx = out.map((x, i) => (x === null ? -1 : i)).filter((i) => i >= 0);
  const m = idx.length;
  if (method === "none" || m === 0) return out;
  if (method === "holm") {
    const order = [...idx].sort((a, b) => out[a]! - out[b]!);
    let running = 0;
    const adjusted = new Map<number, number>();
    order.forEach((i, r) => {
      running = Math.max(running, Math.min(1, (m - r) * out[i]!));
      adjusted.set(i, running);
    });
    for (const [i, v] of adjusted) out[i] = v;
    return out;
  }
  if (method === "BH") {
    const order = [...idx].sort((a, b) => out[b]! - out[a]!); // descending
    let running = 1;
    const adjusted = new Map<number, number>();
    order.forEach((i, r) => {
      const rank = m - r; // ascending rank of p_i
      running = Math.min(running, (m / rank) * out[i]!);
      adjusted.set(i, Math.min(1, running));
    });
    for (const [i, v] of adjusted) out[i] = v;
    return out;
  }
  return out.map(() => null);
}
