import { timingSafeEqual, createHash } from "node:crypto";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type pg from "pg";

/**
 * Prometheus metrics of this process (GET /api/metrics). Each instance counts
 * its own requests and Prometheus adds the instances up, so nothing is shared
 * through the database. The registry lives on globalThis: Next bundles each
 * route separately, and every bundle must count into the same registry.
 */
interface Metrics {
  registry: Registry;
  requests: Counter<"route" | "method" | "status">;
  latency: Histogram<"route" | "method" | "status">;
  gradesSubmitted: Counter<never>;
  escalationsOpened: Counter<"kind">;
  importSeconds: Histogram<"kind" | "outcome">;
  exportSeconds: Histogram<"dataset" | "format" | "outcome">;
}

const globalForMetrics = globalThis as unknown as { clingradeMetrics?: Metrics; clingradePool?: pg.Pool };

function create(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "clingrade_" });
  const m: Metrics = {
    registry,
    requests: new Counter({
      name: "clingrade_http_requests_total",
      help: "API requests answered, by route pattern, method and status",
      labelNames: ["route", "method", "status"],
      registers: [registry],
    }),
    latency: new Histogram({
      name: "clingrade_http_request_duration_seconds",
      help: "Time from a request's arrival to its response headers (a streamed export's body is timed by clingrade_export_duration_seconds)",
      labelNames: ["route", "method", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    gradesSubmitted: new Counter({
      name: "clingrade_grades_submitted_total",
      help: "Assignments submitted for the first time (revisions and drafts are not counted)",
      registers: [registry],
    }),
    escalationsOpened: new Counter({
      name: "clingrade_escalations_opened_total",
      help: "Escalations opened because the graders of a set disagree (kind: created, or reopened after a revision)",
      labelNames: ["kind"],
      registers: [registry],
    }),
    importSeconds: new Histogram({
      name: "clingrade_import_duration_seconds",
      help: "Imports of questions and answers (kind: import, dry-run, archive), by outcome",
      labelNames: ["kind", "outcome"],
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers: [registry],
    }),
    exportSeconds: new Histogram({
      name: "clingrade_export_duration_seconds",
      help: "Exports from the request to the last byte streamed, by dataset, format and outcome",
      labelNames: ["dataset", "format", "outcome"],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers: [registry],
    }),
  };
  // Read at scrape time from the pool lib/db/client.ts created (none yet: nothing to report).
  const pool = (field: "totalCount" | "idleCount" | "waitingCount") => () => globalForMetrics.clingradePool?.[field] ?? 0;
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  gauge("clingrade_db_pool_connections", "Connections the database pool holds (busy and idle)", pool("totalCount"));
  gauge("clingrade_db_pool_idle_connections", "Connections of the pool waiting for work", pool("idleCount"));
  gauge("clingrade_db_pool_waiting_requests", "Queries waiting for a free connection of the pool", pool("waitingCount"));
  gauge("clingrade_db_pool_max_connections", "The pool's size (DATABASE_POOL_SIZE)", () => globalForMetrics.clingradePool?.options.max ?? 0);
  return m;
}

export function metrics(): Metrics {
  return (globalForMetrics.clingradeMetrics ??= create());
}

/**
 * The route pattern of a request ("/api/v1/studies/[id]"), from its path and
 * the params Next matched: a label per route, never per id, so that the number
 * of series stays bounded whatever paths callers send.
 */
export function routePattern(pathname: string, params: unknown): string {
  const byValue = new Map<string, string>();
  if (params && typeof params === "object") {
    for (const [key, value] of Object.entries(params)) if (typeof value === "string") byValue.set(value, `[${key}]`);
  }
  return pathname
    .split("/")
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // A malformed escape cannot be a param Next decoded: keep the segment as it is.
      }
      return byValue.get(decoded) ?? segment;
    })
    .join("/");
}

export function observeRequest(route: string, method: string, status: number, seconds: number): void {
  const m = metrics();
  const labels = { route, method, status: String(status) };
  m.requests.inc(labels);
  m.latency.observe(labels, seconds);
}

/** Times `fn` into a histogram with outcome "ok" or "error". */
export async function timed<T>(histogram: Histogram<string>, labels: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const end = histogram.startTimer(labels);
  try {
    const result = await fn();
    end({ outcome: "ok" });
    return result;
  } catch (err) {
    end({ outcome: "error" });
    throw err;
  }
}

/**
 * Whether the Authorization header carries METRICS_TOKEN. Both sides are
 * hashed first so that the comparison takes the same time whatever the
 * length or content of what was sent.
 */
export function metricsTokenMatches(header: string | null, token: string): boolean {
  const sent = /^Bearer (.+)$/i.exec(header ?? "")?.[1] ?? "";
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(sent), digest(token)) && sent.length > 0;
}
