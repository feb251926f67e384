import { afterEach, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { config, proxy } from "@/proxy";
import { contentSecurityPolicy, newNonce, strictTransportSecurity } from "@/lib/server/security-headers";

const directive = (csp: string, name: string) => csp.split("; ").find((d) => d.startsWith(`${name} `)) ?? "";

describe("Content-Security-Policy", () => {
  it("allows scripts by nonce only, never 'unsafe-inline'; styles keep 'unsafe-inline' (Radix and Recharts inline styles)", () => {
    const csp = contentSecurityPolicy({ nonce: "abc123==" });
    expect(directive(csp, "script-src")).toBe("script-src 'self' 'nonce-abc123==' 'strict-dynamic'");
    expect(directive(csp, "style-src")).toBe("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(directive(contentSecurityPolicy(), "script-src")).toBe("script-src 'self'");
    expect(directive(contentSecurityPolicy({ dev: true }), "script-src")).toBe("script-src 'self' 'unsafe-eval'");
  });

  it("makes a new 128-bit nonce each time", () => {
    const nonces = new Set(Array.from({ length: 1000 }, newNonce));
    expect(nonces.size).toBe(1000);
    for (const n of nonces) expect(Buffer.from(n, "base64")).toHaveLength(16);
  });
});

describe("Strict-Transport-Security", () => {
  it("is sent only when the public address is https", () => {
    expect(strictTransportSecurity("https://grading.hospital.example")).toBe("max-age=31536000; includeSubDomains");
    expect(strictTransportSecurity("HTTPS://grading.hospital.example")).not.toBeNull();
    expect(strictTransportSecurity("http://localhost:3000")).toBeNull();
    expect(strictTransportSecurity("")).toBeNull();
    expect(strictTransportSecurity(undefined)).toBeNull();
  });
});

describe("proxy.ts", () => {
  const saved = process.env.NEXTAUTH_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.NEXTAUTH_URL;
    else process.env.NEXTAUTH_URL = saved;
  });

  const run = (url: string, headers: Record<string, string> = {}) => proxy(new NextRequest(url, { headers }));

  it("gives each response its own nonce policy, and hands the same policy to the render (which takes the nonce from it)", () => {
    const a = run("http://localhost:3000/grade/x");
    const b = run("http://localhost:3000/grade/x");
    const csp = a.headers.get("content-security-policy")!;
    expect(directive(csp, "script-src")).toMatch(/^script-src 'self' 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic'$/);
    expect(csp).not.toBe(b.headers.get("content-security-policy"));
    expect(a.headers.get("x-middleware-request-content-security-policy")).toBe(csp);
    expect(a.headers.get("x-middleware-override-headers")).toContain("content-security-policy");
  });

  it("replaces a policy the client sent, so the client cannot choose the nonce", () => {
    const res = run("http://localhost:3000/login", { "content-security-policy": "script-src 'nonce-chosen'" });
    expect(res.headers.get("x-middleware-request-content-security-policy")).not.toContain("chosen");
  });

  it("sends HSTS when NEXTAUTH_URL is https, and not over plain http, whatever X-Forwarded-Proto claims", () => {
    process.env.NEXTAUTH_URL = "https://grading.hospital.example";
    expect(run("http://localhost:3000/login").headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(run("http://localhost:3000/api/v1/me").headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    process.env.NEXTAUTH_URL = "http://localhost:3000";
    expect(run("http://localhost:3000/login", { "x-forwarded-proto": "https" }).headers.get("strict-transport-security")).toBeNull();
    delete process.env.NEXTAUTH_URL;
    expect(run("http://localhost:3000/login").headers.get("strict-transport-security")).toBeNull();
  });

  it("runs on every page and API route but the uploads, which it would buffer, and static files", () => {
    const [matcher] = config.matcher;
    const matches = (path: string) => new RegExp(`^${matcher}$`).test(path);
    for (const p of ["/", "/login", "/queue", "/grade/0b5c", "/studies/abc/dashboard", "/admin/users", "/no-such-page", "/api/v1/me", "/api/v1/studies/abc/export"]) {
      expect(matches(p), p).toBe(true);
    }
    for (const p of ["/api/v1/studies/abc/import", "/api/v1/study-archives", "/_next/static/chunks/a.js", "/favicon.ico"]) expect(matches(p), p).toBe(false);
  });
});
