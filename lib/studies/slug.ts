import { randomBytes } from "node:crypto";

const MAX_SLUG = 60;

/**
 * A URL-safe slug from a study name: accents folded to ASCII, everything
 * else that is not a letter or digit turned into single dashes.
 */
export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG)
    .replace(/-+$/g, "");
  return slug || "study";
}

/** `base`, else `base-2`, `base-3`, ... : the first one not taken. */
export function pickUniqueSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** A last resort when two studies with the same name are created at the same instant. */
export function randomSlugSuffix(base: string): string {
  return `${base}-${randomBytes(3).toString("hex")}`;
}
