import http from "node:http";
import type net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { drainer, shutdownTimeoutMs } from "@/lib/server/graceful";

/** A real HTTP server on a free port: /slow answers after 400 ms, /hang never, anything else at once. */
async function serve() {
  const server = http.createServer();
  const d = drainer(server);
  let started = 0;
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!d.admit(req, res)) return;
    started++;
    if (req.url === "/hang") return;
    const answer = () => res.end(JSON.stringify({ url: req.url }));
    if (req.url === "/slow") setTimeout(answer, 400);
    else answer();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as net.AddressInfo).port;
  return { server, d, port, started: () => started };
}

type Outcome = { status: number; connection: string | undefined; reused: boolean; body: string } | { error: string; reused: boolean };

function get(port: number, path: string, agent: http.Agent): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path, agent }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, reused: req.reusedSocket, body }));
      res.on("error", (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message, reused: req.reusedSocket }));
    });
    req.on("error", (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message, reused: req.reusedSocket }));
  });
}

const agents: http.Agent[] = [];
const agent = () => {
  const a = new http.Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(a);
  return a;
};
afterEach(() => {
  for (const a of agents.splice(0)) a.destroy();
});

describe("drainer", () => {
  it("finishes requests in flight, refuses new connections and answers 503 on open ones, never a reset", async () => {
    const { d, port } = await serve();
    const idle = agent();
    expect(await get(port, "/warm", idle)).toMatchObject({ status: 200, connection: "keep-alive" });

    const inFlight = get(port, "/slow", agent());
    await new Promise((r) => setTimeout(r, 100));
    const drained = d.drain(5_000);
    expect(d.draining()).toBe(true);

    // A new connection is refused; a request on a kept-alive connection gets an answer saying why.
    expect(await get(port, "/new", agent())).toEqual({ error: "ECONNREFUSED", reused: false });
    const onOpen = await get(port, "/late", idle);
    expect(onOpen).toMatchObject({ status: 503, connection: "close", reused: true });
    expect(JSON.parse((onOpen as { body: string }).body).error).toMatch(/shutting down/);

    // The request that was running when the drain began is answered in full, and its connection closed.
    expect(await inFlight).toEqual({ status: 200, connection: "close", reused: false, body: '{"url":"/slow"}' });
    expect(await drained).toEqual({ cut: 0 });
  });

  it("cuts what still runs at the timeout, and only then", async () => {
    const { d, port, started } = await serve();
    const hanging = get(port, "/hang", agent());
    await expect.poll(started).toBe(1);
    const t0 = Date.now();
    expect(await d.drain(600)).toEqual({ cut: 1 });
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(590);
    expect(took).toBeLessThan(2_000);
    expect(await hanging).toMatchObject({ error: expect.stringMatching(/ECONNRESET|socket hang up/) });
  });

  it("returns at once when nothing is running and no connection is open", async () => {
    const { d } = await serve();
    const t0 = Date.now();
    expect(await d.drain(10_000)).toEqual({ cut: 0 });
    expect(Date.now() - t0).toBeLessThan(1_500);
  });
});

describe("SHUTDOWN_TIMEOUT_MS", () => {
  it("defaults to 10 s and refuses what is not a number of milliseconds", () => {
    expect(shutdownTimeoutMs({})).toBe(10_000);
    expect(shutdownTimeoutMs({ SHUTDOWN_TIMEOUT_MS: " 2500 " })).toBe(2_500);
    expect(shutdownTimeoutMs({ SHUTDOWN_TIMEOUT_MS: "0" })).toBe(0);
    for (const bad of ["10s", "-1", "1e4", "99999999999"]) {
      expect(() => shutdownTimeoutMs({ SHUTDOWN_TIMEOUT_MS: bad })).toThrow(/SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds/);
    }
  });
});
