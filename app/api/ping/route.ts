export const dynamic = "force-dynamic";

/** No database, no auth: the framework's floor, for the benchmarks to compare against. */
export function GET() {
  return new Response("pong", { headers: { "content-type": "text/plain", "cache-control": "no-store" } });
}
