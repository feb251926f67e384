/**
 * Open work as people read it, in messages and on pages (lib/users/open-work-text.ts
 * re-exports it). Here, not in lib/users, because lib/users sends mail: the
 * other way round the two feature folders would import each other. No
 * imports, so client components can use it.
 */

/** "33 open assignments (1 an adjudication)" */
export function describeOpenWork(open: number, adjudications: number): string {
  const a = `${open} open assignment${open === 1 ? "" : "s"}`;
  if (!adjudications) return a;
  return `${a} (${adjudications} ${adjudications === 1 ? "an adjudication" : "adjudications"})`;
}
