import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALLOWED_METHODS, refuseUnsupportedMethod } from "@/lib/server/methods";

/**
 * The server of scripts/start.ts in miniature: the guard, then a handler that,
 * like Next, turns the request into a fetch Request (which throws for TRACE).
 */
function send(port: number, method: string): Promise<{ status: number; allow?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ port, method, path: "/studies" }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("methods the app does not answer", () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (refuseUnsupportedMethod(req, res)) return;
      try {
        new Request(`http://localhost${req.url}`, { method: req.method });
        res.end("handled");
      } catch {
        res.statusCode = 500;
        res.end("internal error");
      }
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it.each(["TRACE", "PROPFIND", "MKCOL", "LOCK", "PURGE"])("%s is 405 with an Allow header, never 500", async (method) => {
    const res = await send(port, method);
    expect(res.status).toBe(405);
    expect(res.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    expect(JSON.parse(res.body).error).toContain(`method ${method} is not allowed`);
  });

  it("is needed: a fetch Request, which Next makes of every request, cannot be made for TRACE", () => {
    expect(() => new Request("http://localhost/", { method: "TRACE" })).toThrow(/unsupported/);
  });

  it("passes the methods the app uses on to the handler", async () => {
    for (const method of ALLOWED_METHODS) expect((await send(port, method)).status, method).toBe(200);
  });
});
