import { checkDatabase } from "@/lib/db/health";
import { isDraining } from "@/lib/server/lifecycle";

export const dynamic = "force-dynamic";

/**
 * Readiness: whether a load balancer should send this instance work. 503 while
 * it drains for a shutdown, or while PostgreSQL does not answer (it turns 200
 * again by itself when the database is back).
 */
export async function GET() {
  const headers = { "cache-control": "no-store" };
  if (isDraining()) return Response.json({ status: "draining", reason: "shutting down: finishing the requests in flight" }, { status: 503, headers });
  const db = await checkDatabase();
  if (db.ok) return Response.json({ status: "ok", db: "ok" }, { headers });
  return Response.json({ status: "unavailable", db: "error", reason: db.reason }, { status: 503, headers });
}
