import { afterEach, describe, expect, it, vi } from "vitest";

const original = process.env.NEXTAUTH_URL;
afterEach(() => {
  process.env.NEXTAUTH_URL = original;
  vi.resetModules();
});

async function optionsWith(url: string) {
  process.env.NEXTAUTH_URL = url;
  vi.resetModules();
  return (await import("@/lib/auth/options")).authOptions;
}

describe("session cookies", () => {
  it("are Secure when the app is served over https (production behind TLS)", async () => {
    expect((await optionsWith("https://clingrade.hospital.example")).useSecureCookies).toBe(true);
  });

  it("are not Secure on the http://localhost demo, where a Secure cookie would never be sent back", async () => {
    expect((await optionsWith("http://localhost:3000")).useSecureCookies).toBe(false);
  });

  it("are JWTs naming a server-side session, for 8 hours at most", async () => {
    const o = await optionsWith("https://x.example");
    expect(o.session).toEqual({ strategy: "jwt", maxAge: 8 * 60 * 60 });
  });
});
