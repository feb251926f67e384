import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import net from "node:net";

/**
 * The client's address, for sign-in throttling. Next's route handlers do not
 * see the socket (and Next fills X-Forwarded-For from it only when the client
 * sent none, so a client picks its own), so scripts/start.ts, which owns the
 * HTTP server, stamps the socket's peer address on every request in a header
 * whose name is a secret of the process: a client cannot send it. X-Forwarded-For
 * is believed only when that peer is one of TRUSTED_PROXIES, and then only up
 * to the right-most address no trusted proxy vouches for.
 */
const PEER_HEADER_ENV = "CLINGRADE_PEER_HEADER";
/** The address of a request whose peer is not known (the app was not started by scripts/start.ts). */
export const UNKNOWN_ADDRESS = "unknown";

export class TrustedProxiesError extends Error {
  constructor(entry: string) {
    super(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range (e.g. 10.0.0.1, 10.0.0.0/8, fd00::/8).`);
    this.name = "TrustedProxiesError";
  }
}

/** Strips what proxies add around an address ("[::1]:443", "1.2.3.4:5678") and unmaps IPv4-mapped IPv6. */
export function normaliseAddress(raw: string): string {
  let a = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(a);
  if (bracketed) a = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(":"));
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i.exec(a);
  return mapped ? mapped[1] : a;
}

/** Parses a comma-separated list of IPs and CIDR ranges; throws naming the first bad entry. */
export function parseTrustedProxies(value: string | undefined): net.BlockList {
  const list = new net.BlockList();
  for (const entry of (value ?? "").split(",").map((e) => e.trim()).filter(Boolean)) {
    const [addr, prefix, extra] = entry.split("/");
    const ip = normaliseAddress(addr);
    const family = net.isIP(ip);
    if (!family || extra !== undefined) throw new TrustedProxiesError(entry);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (prefix === undefined) {
      list.addAddress(ip, type);
      continue;
    }
    const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
    if (!(bits <= (family === 4 ? 32 : 128))) throw new TrustedProxiesError(entry);
    list.addSubnet(ip, bits, type);
  }
  return list;
}

let cached: { value: string | undefined; list: net.BlockList } | undefined;
function trustedProxies(): net.BlockList {
  const value = process.env.TRUSTED_PROXIES;
  if (!cached || cached.value !== value) {
    let list: net.BlockList;
    try {
      list = parseTrustedProxies(value);
    } catch {
      // scripts/start.ts refuses to start with a bad list; anywhere else, trust no proxy.
      list = new net.BlockList();
    }
    cached = { value, list };
  }
  return cached.list;
}

function isTrusted(list: net.BlockList, address: string): boolean {
  const family = net.isIP(address);
  return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
}

/**
 * For scripts/start.ts: checks TRUSTED_PROXIES (throws naming a bad entry) and
 * returns the function that stamps each request's socket address, under a
 * header name made here and published to this process only.
 */
export function peerAddressStamper(): (req: IncomingMessage) => void {
  parseTrustedProxies(process.env.TRUSTED_PROXIES);
  const header = `x-clingrade-peer-${randomBytes(12).toString("hex")}`;
  process.env[PEER_HEADER_ENV] = header;
  return (req) => {
    req.headers[header] = req.socket.remoteAddress ?? "";
  };
}

/**
 * The client address of a request: the socket's peer, or, when the peer is a
 * trusted proxy, the right-most X-Forwarded-For address that is not itself a
 * trusted proxy (addresses left of it are whatever the client chose to send).
 */
export function clientAddress(headers: Headers, trusted: net.BlockList = trustedProxies()): string {
  const header = process.env[PEER_HEADER_ENV];
  const peer = header ? normaliseAddress(headers.get(header) ?? "") : "";
  if (!net.isIP(peer)) return UNKNOWN_ADDRESS;
  const hops = (headers.get("x-forwarded-for") ?? "").split(",").map(normaliseAddress).filter(Boolean);
  let address = peer;
  while (isTrusted(trusted, address) && hops.length > 0) {
    const next = hops.pop()!;
    // A trusted proxy that forwarded garbage: the proxy is the last address known.
    if (!net.isIP(next)) break;
    address = next;
  }
  return address;
}
