/**
 * A small round-robin load balancer (node:http only) for running several app
 * instances behind one address, as a hospital's load balancer would: each
 * request (not each connection) goes to the next upstream in turn, bodies are
 * streamed both ways, and the client's address is appended to X-Forwarded-For
 * (as nginx's `proxy_add_x_forwarded_for` does; the instances trust it through
 * TRUSTED_PROXIES). Every response says which upstream answered it in
 * `x-served-by` (its index), and the balancer keeps a log of them, so a test
 * can show that a session really moved between instances.
 *
 * Used by e2e/multi-instance.spec.ts and bench/load/run.ts (`--instances 2`).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export const SERVED_BY = "x-served-by";

export interface Served {
  upstream: number;
  method: string;
  path: string;
  status: number;
}

export interface Balancer {
  url: string;
  port: number;
  /** The instance ports requests are spread over, in turn; replace it to change the pool. */
  upstreams: number[];
  /** Every answered request, in the order the answers started. */
  log: Served[];
  /** The upstream (index) the next request will go to. */
  nextUpstream: () => number;
  close: () => Promise<void>;
}

export async function startBalancer(port: number, upstreams: number[], opts: { host?: string } = {}): Promise<Balancer> {
  const host = opts.host ?? "127.0.0.1";
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  let turn = 0;
  const balancer: Balancer = { url: "", port, upstreams: [...upstreams], log: [], nextUpstream: () => turn % balancer.upstreams.length, close: async () => {} };

  const server = http.createServer((req, res) => {
    const index = turn++ % balancer.upstreams.length;
    const upstreamPort = balancer.upstreams[index];
    const headers = { ...req.headers };
    const peer = req.socket.remoteAddress ?? "";
    const forwarded = req.headers["x-forwarded-for"];
    headers["x-forwarded-for"] = forwarded ? `${Array.isArray(forwarded) ? forwarded.join(", ") : forwarded}, ${peer}` : peer;
    headers["x-forwarded-proto"] = "http";
    headers["x-forwarded-host"] = req.headers.host ?? `${host}:${port}`;
    const upstream = http.request({ host: "127.0.0.1", port: upstreamPort, method: req.method, path: req.url, headers, agent }, (up) => {
      balancer.log.push({ upstream: index, method: req.method ?? "GET", path: req.url ?? "/", status: up.statusCode ?? 0 });
      res.writeHead(up.statusCode ?? 502, up.statusMessage, { ...up.headers, [SERVED_BY]: String(index) });
      up.pipe(res);
      up.on("error", () => res.destroy());
    });
    upstream.on("error", (err) => {
      if (res.headersSent) return res.destroy();
      res.writeHead(502, { "content-type": "text/plain", [SERVED_BY]: String(index) });
      res.end(`upstream ${upstreamPort}: ${err.message}\n`);
    });
    req.pipe(upstream);
    req.on("error", () => upstream.destroy());
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  balancer.port = actual;
  balancer.url = `http://${host}:${actual}`;
  balancer.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      agent.destroy();
    });
  return balancer;
}
