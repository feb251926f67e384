import { createHash } from "node:crypto";
import { mulberry32 } from "@/lib/stats";

/** A 32-bit seed from any string, so a lead can type a word as the seed. */
export function seedToUint32(seed: string): number {
  return createHash("sha256").update(seed).digest().readUInt32LE(0);
}

/** The items in a random order that the same seed always repeats (Fisher-Yates on mulberry32). */
export function seededShuffle<T>(items: readonly T[], seed: string): T[] {
  const rng = mulberry32(seedToUint32(seed));
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
