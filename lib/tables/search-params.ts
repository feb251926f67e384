import { z } from "zod";
import "@/lib/api/zod-openapi";
import { lineText } from "@/lib/validation/text";

/**
 * The URL is the state of a server-driven table: page, pageSize, sort and
 * filters are search params, the server reads them with a zod schema (the
 * same one the REST endpoint validates with) and queries one page; the client
 * table only renders that page and rewrites the URL.
 *
 * Pure (no React, no database) so pages, route handlers and tests share it.
 */

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** `page` (1-based) and `pageSize` fields for a table's query schema. */
export function paginationFields(defaultPageSize: number = DEFAULT_PAGE_SIZE) {
  return {
    page: z.coerce
      .number({ error: "page must be a number" })
      .int({ error: "page must be a whole number" })
      .min(1, { error: "page must be at least 1" })
      .max(1_000_000, { error: "page is too large" })
      .default(1)
      .meta({ description: "1-based page number" }),
    pageSize: z.coerce
      .number({ error: "pageSize must be a number" })
      .int({ error: "pageSize must be a whole number" })
      .min(1, { error: "pageSize must be at least 1" })
      .max(MAX_PAGE_SIZE, { error: `pageSize must be at most ${MAX_PAGE_SIZE}` })
      .default(defaultPageSize)
      .meta({ description: `rows per page (1-${MAX_PAGE_SIZE})` }),
  };
}

export type SortValue<K extends string> = K | `-${K}`;

/** A `sort` field: a column key, with a leading `-` for descending (`-createdAt`). */
export function sortField<const K extends string>(keys: readonly K[], defaultSort: SortValue<K>) {
  const values = keys.flatMap((k) => [k, `-${k}`]) as unknown as readonly [SortValue<K>, ...SortValue<K>[]];
  return z
    .enum(values, { error: `sort must be one of ${keys.join(", ")}, optionally prefixed with - for descending` })
    .default(defaultSort as never)
    .meta({ description: `column to sort by (${keys.join(", ")}); prefix with - for descending` });
}

/** A yes/no filter written as `true` / `false` in the URL. */
export function booleanFilter(description: string) {
  return z
    .enum(["true", "false"], { error: "must be true or false" })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true"))
    .meta({ description });
}

/** A free-text search filter; blank means no filter. */
export function textFilter(description: string) {
  return lineText()
    .max(200, { error: "search text is longer than 200 characters" })
    .optional()
    .transform((v) => (v ? v : undefined))
    .meta({ description });
}

export type RawSearchParams = URLSearchParams | Record<string, string | string[] | undefined>;

function rawValue(raw: RawSearchParams, key: string): string | undefined {
  if (raw instanceof URLSearchParams) return raw.get(key) ?? undefined;
  const v = raw[key];
  return Array.isArray(v) ? v[0] : v;
}

export interface ParamIssue {
  path: string;
  message: string;
}

/**
 * Reads a table's search params with its schema, one field at a time.
 * `issues` lists each bad field; in lenient mode (pages: a hand-edited URL
 * should still show the table) a bad field falls back to its default, while
 * the REST endpoint turns any issue into a 422.
 */
export function parseTableParams<S extends z.ZodObject>(schema: S, raw: RawSearchParams): { data: z.output<S>; issues: ParamIssue[] } {
  const data: Record<string, unknown> = {};
  const issues: ParamIssue[] = [];
  for (const [key, field] of Object.entries(schema.shape) as [string, z.ZodType][]) {
    const value = rawValue(raw, key);
    const parsed = field.safeParse(value === "" ? undefined : value);
    if (parsed.success) {
      data[key] = parsed.data;
      continue;
    }
    issues.push(...parsed.error.issues.map((i) => ({ path: key, message: i.message })));
    const fallback = field.safeParse(undefined);
    data[key] = fallback.success ? fallback.data : undefined;
  }
  return { data: data as z.output<S>, issues };
}

export interface SortState {
  id: string;
  desc: boolean;
}

export function sortToState(sort: string): SortState {
  return sort.startsWith("-") ? { id: sort.slice(1), desc: true } : { id: sort, desc: false };
}

export function stateToSort(state: SortState): string {
  return state.desc ? `-${state.id}` : state.id;
}

/** SQL OFFSET for a 1-based page. */
export function offsetOf(page: number, pageSize: number): number {
  return (page - 1) * pageSize;
}

/** A page response: the rows plus what the table needs to draw its pager. */
export interface Page<T> {
  rows: T[];
  total: number;
  page: number;
  pageSize: number;
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/**
 * The search string after a change: `null`/empty removes a param. Changing
 * anything but the page sends the reader back to page 1, since the old page
 * number means nothing under new filters, sorting or page size.
 */
export function withParams(current: URLSearchParams | string, changes: Record<string, string | number | null | undefined>): string {
  const next = new URLSearchParams(current);
  let resetPage = false;
  for (const [key, value] of Object.entries(changes)) {
    if (key !== "page") resetPage = true;
    if (value === null || value === undefined || value === "") next.delete(key);
    else next.set(key, String(value));
  }
  if (resetPage && !("page" in changes)) next.delete("page");
  if (next.get("page") === "1") next.delete("page");
  const s = next.toString();
  return s ? `?${s}` : "";
}
