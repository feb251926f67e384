import type http from "node:http";
import net from "node:net";

/**
 * Graceful shutdown of an HTTP/1.1 server: every request the server took is
 * answered, and no request is cut in the middle. On `drain()`:
 *
 * - the listening socket closes, so a new connection is refused (a load
 *   balancer then tries another instance);
 * - requests in flight run to their end, answered with `Connection: close`;
 * - a request that arrives on an open keep-alive connection gets a 503 with
 *   `Connection: close` rather than a reset;
 * - once nothing is in flight, connections left idle for a moment are closed;
 *   at `timeoutMs` whatever still runs is cut (the bound the operator chose).
 *
 * `http.Server.close()` would close idle keep-alive connections at once (Node
 * 19+), resetting a client that is sending its next request on one at that
 * moment, so only the listening socket is closed at first.
 */
export interface Drainer {
  /** Call first in the request listener: false when the request was refused (draining). */
  admit(req: http.IncomingMessage, res: http.ServerResponse): boolean;
  /** Resolves when every connection is closed, or at timeoutMs with what was cut. */
  drain(timeoutMs: number): Promise<{ cut: number }>;
  draining(): boolean;
}

/** How long a kept-alive connection may sit idle once nothing is in flight, for a request already on its way to arrive. */
const IDLE_GRACE_MS = 250;

export function drainer(server: http.Server, onDrainStart?: () => void): Drainer {
  let draining = false;
  const inFlight = new Set<http.ServerResponse>();
  const sockets = new Set<net.Socket>();
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });

  const closeAfter = (res: http.ServerResponse) => {
    if (res.headersSent) return; // its connection closes once idle
    res.shouldKeepAlive = false;
    res.setHeader("connection", "close");
  };

  return {
    draining: () => draining,
    admit(req, res) {
      if (draining) {
        closeAfter(res);
        res.writeHead(503, { "content-type": "application/json", "cache-control": "no-store", "retry-after": "1" });
        res.end(JSON.stringify({ error: "this instance is shutting down: send the request again (another instance will take it)" }));
        // Whatever body the client still sends is read and dropped, so that it sees the 503 and not a reset.
        req.resume();
        return false;
      }
      inFlight.add(res);
      res.once("close", () => inFlight.delete(res));
      return true;
    },
    async drain(timeoutMs) {
      draining = true;
      onDrainStart?.();
      const deadline = Date.now() + timeoutMs;
      const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
      for (const res of inFlight) closeAfter(res);
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, Math.min(ms, deadline - Date.now()))));
      while (inFlight.size > 0 && Date.now() < deadline) await sleep(20);
      // Nothing in flight: give a request already sent on an idle connection the time to arrive (it gets its 503).
      if (inFlight.size === 0) await sleep(IDLE_GRACE_MS);
      const cut = inFlight.size;
      server.closeIdleConnections();
      if (cut > 0) server.closeAllConnections();
      // A connection that never sent a byte is not the HTTP server's to close.
      for (const socket of sockets) socket.end();
      await Promise.race([closed, new Promise((r) => setTimeout(r, 1_000))]);
      return { cut };
    },
  };
}

/** SHUTDOWN_TIMEOUT_MS: how long in-flight requests may run after SIGTERM (default 10 s). */
export function shutdownTimeoutMs(env: Record<string, string | undefined> = process.env): number {
  const raw = env.SHUTDOWN_TIMEOUT_MS?.trim();
  if (!raw) return 10_000;
  if (!/^\d+$/.test(raw) || Number(raw) > 3_600_000) {
    throw new Error(`SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds up to 3600000 (one hour); it is "${raw.slice(0, 40)}"`);
  }
  return Number(raw);
}
