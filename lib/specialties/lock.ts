/**
 * Taken by every transaction before it creates specialty names (./names.ts and
 * the importers), and held to its end: creators of the same name in two cases
 * run one after the other, and the second finds the first's row. A module of
 * its own so the imports' worker threads take it without Prisma's runtime.
 */
export const SPECIALTY_NAMES_LOCK = "SELECT pg_advisory_xact_lock(hashtext('clingrade:specialty-names'))";
