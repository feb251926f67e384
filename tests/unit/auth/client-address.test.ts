import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { clientAddress, normaliseAddress, parseTrustedProxies, peerAddressStamper } from "@/lib/log/client-address";

const saved = { header: process.env.CLINGRADE_PEER_HEADER, proxies: process.env.TRUSTED_PROXIES };
afterEach(() => {
  for (const [k, v] of [["CLINGRADE_PEER_HEADER", saved.header], ["TRUSTED_PROXIES", saved.proxies]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

/** Headers as the stamped server hands them on: the socket's peer under the process's secret name. */
function stamped(peer: string, extra: Record<string, string> = {}) {
  process.env.CLINGRADE_PEER_HEADER = "x-clingrade-peer-test";
  return new Headers({ "x-clingrade-peer-test": peer, ...extra });
}

describe("the client address", () => {
  it("is the socket's peer, whatever X-Forwarded-For an untrusted client sends", () => {
    const none = parseTrustedProxies(undefined);
    expect(clientAddress(stamped("203.0.113.9", { "x-forwarded-for": "1.2.3.4" }), none)).toBe("203.0.113.9");
    expect(clientAddress(stamped("::ffff:203.0.113.9", { "x-forwarded-for": "1.2.3.4, 10.0.0.1" }), parseTrustedProxies("10.0.0.0/8"))).toBe("203.0.113.9");
  });

  it("behind a trusted proxy, is the right-most X-Forwarded-For address no trusted proxy vouches for", () => {
    const trusted = parseTrustedProxies("10.0.0.0/8, fd00::/8, 192.0.2.10");
    // the client forged "6.6.6.6"; the outer proxy appended the real client, the inner one the outer proxy
    const h = stamped("10.1.1.1", { "x-forwarded-for": "6.6.6.6, 198.51.100.20, 192.0.2.10" });
    expect(clientAddress(h, trusted)).toBe("198.51.100.20");
    expect(clientAddress(stamped("fd12::1", { "x-forwarded-for": "[2001:db8::7]:4711" }), trusted)).toBe("2001:db8::7");
    // a chain of trusted addresses only: the left-most is the client (an internal one)
    expect(clientAddress(stamped("10.1.1.1", { "x-forwarded-for": "10.2.2.2" }), trusted)).toBe("10.2.2.2");
    // a trusted proxy without the header, or one that forwards garbage: the proxy itself
    expect(clientAddress(stamped("10.1.1.1"), trusted)).toBe("10.1.1.1");
    expect(clientAddress(stamped("10.1.1.1", { "x-forwarded-for": "<script>, not-an-ip" }), trusted)).toBe("10.1.1.1");
  });

  it("is unknown when no server stamped the peer: a header a client sends under a guessed name counts for nothing", () => {
    delete process.env.CLINGRADE_PEER_HEADER;
    expect(clientAddress(new Headers({ "x-forwarded-for": "1.2.3.4", "x-clingrade-peer": "1.2.3.4" }), parseTrustedProxies(""))).toBe("unknown");
    expect(clientAddress(stamped("not an address"), parseTrustedProxies(""))).toBe("unknown");
  });

  it("reads TRUSTED_PROXIES as IPs and CIDR ranges, naming a bad entry", () => {
    const list = parseTrustedProxies(" 127.0.0.1 ,::1,172.16.0.0/12 ");
    expect(list.check("172.31.255.255", "ipv4")).toBe(true);
    expect(list.check("172.32.0.1", "ipv4")).toBe(false);
    expect(list.check("::1", "ipv6")).toBe(true);
    for (const bad of ["localhost", "10.0.0.0/33", "10.0.0.0/8/1", "::1/129", "10.0.0.0/"]) {
      expect(() => parseTrustedProxies(`127.0.0.1,${bad}`)).toThrow(`TRUSTED_PROXIES: "${bad}" is not an IP address or CIDR range`);
    }
    expect(normaliseAddress(" 203.0.113.5:8080 ")).toBe("203.0.113.5");
  });
});

describe("the start script's stamp", () => {
  /** A real HTTP server stamped as scripts/start.ts does; it answers with the address it sees. */
  async function serve(): Promise<{ url: string; close: () => Promise<void> }> {
    const stamp = peerAddressStamper();
    const server = http.createServer((req, res) => {
      stamp(req);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, String(v));
      res.end(clientAddress(headers));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((r) => server.close(() => r())) };
  }

  it("gives the socket's address to a client that forges X-Forwarded-For, and believes a configured proxy", async () => {
    delete process.env.TRUSTED_PROXIES;
    const app = await serve();
    try {
      const header = process.env.CLINGRADE_PEER_HEADER!;
      expect(header).toMatch(/^x-clingrade-peer-[0-9a-f]{24}$/);
      const forged = { "x-forwarded-for": "198.51.100.77", [header]: "198.51.100.78" };
      expect(await (await fetch(app.url, { headers: forged })).text()).toBe("127.0.0.1");
      process.env.TRUSTED_PROXIES = "127.0.0.1";
      expect(await (await fetch(app.url, { headers: { "x-forwarded-for": "198.51.100.77" } })).text()).toBe("198.51.100.77");
    } finally {
      await app.close();
    }
  });

  it("refuses to start with a bad TRUSTED_PROXIES", () => {
    process.env.TRUSTED_PROXIES = "10.0.0.1,proxy.internal";
    expect(() => peerAddressStamper()).toThrow(/"proxy.internal" is not an IP address/);
  });
});
