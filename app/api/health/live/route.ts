import { isDraining } from "@/lib/server/lifecycle";

export const dynamic = "force-dynamic";

/**
 * Liveness: the process answers. It does not ask the database (a restart would
 * not bring PostgreSQL back) and stays 200 while draining, so that an
 * orchestrator lets the shutdown finish rather than killing the process.
 */
export async function GET() {
  return Response.json({ status: "ok", draining: isDraining() }, { headers: { "cache-control": "no-store" } });
}
