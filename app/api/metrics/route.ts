import { metrics, metricsTokenMatches } from "@/lib/server/metrics";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const headers = { "cache-control": "no-store" };

/**
 * Prometheus metrics of this instance. Scrapers authenticate with
 * `Authorization: Bearer $METRICS_TOKEN`, a credential of its own: no user's
 * session or API token opens it. Without METRICS_TOKEN the endpoint does not exist.
 */
export async function GET(req: Request) {
  const token = process.env.METRICS_TOKEN?.trim();
  if (!token) return Response.json({ error: "not found" }, { status: 404, headers });
  if (!metricsTokenMatches(req.headers.get("authorization"), token)) {
    return Response.json(
      { error: "metrics need Authorization: Bearer <METRICS_TOKEN>" },
      { status: 401, headers: { ...headers, "www-authenticate": 'Bearer realm="metrics"' } },
    );
  }
  const registry = metrics().registry;
  return new Response(await registry.metrics(), { status: 200, headers: { ...headers, "content-type": registry.contentType } });
}
