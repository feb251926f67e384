import { checkDatabase } from "@/lib/db/health";

export const dynamic = "force-dynamic";

/** Public liveness and readiness: 200 when PostgreSQL answers, 503 with the reason otherwise. */
export async function GET() {
  const db = await checkDatabase();
  const headers = { "cache-control": "no-store" };
  if (db.ok) return Response.json({ status: "ok", db: "ok" }, { headers });
  return Response.json({ status: "unavailable", db: "error", reason: db.reason }, { status: 503, headers });
}
