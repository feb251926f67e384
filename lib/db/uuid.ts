/**
 * The one check of an id before it reaches a uuid column: PostgreSQL fails the
 * whole query on anything else (a 500), so a path, a body or a COPY literal
 * that does not hold a uuid must be told apart first (and answered 404).
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}
