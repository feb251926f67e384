import { describe, expect, it } from "vitest";
import { checkSignInConfig, passwordsEnabled, ssoConfigFromEnv, SsoConfigError } from "@/lib/auth/sso-config";

const BASE = { OIDC_ISSUER: "https://login.hospital.example/realms/x/", OIDC_CLIENT_ID: "clingrade", OIDC_CLIENT_SECRET: "secret" };

describe("single sign-on settings", () => {
  it("are off without OIDC_ISSUER, and complete with it", () => {
    expect(ssoConfigFromEnv({})).toBeNull();
    expect(ssoConfigFromEnv(BASE)).toEqual({
      issuer: "https://login.hospital.example/realms/x",
      clientId: "clingrade",
      clientSecret: "secret",
      label: "single sign-on",
      allowedDomains: null,
      roleClaim: null,
    });
  });

  it("refuse a half configuration, a plain-http issuer off localhost, and an issuer with a query", () => {
    expect(() => ssoConfigFromEnv({ OIDC_CLIENT_ID: "x" })).toThrow(SsoConfigError);
    expect(() => ssoConfigFromEnv({ ...BASE, OIDC_CLIENT_SECRET: "" })).toThrow(/OIDC_CLIENT_SECRET/);
    expect(() => ssoConfigFromEnv({ ...BASE, OIDC_ISSUER: "http://login.hospital.example" })).toThrow(/https/);
    expect(() => ssoConfigFromEnv({ ...BASE, OIDC_ISSUER: "https://login.hospital.example/?tenant=1" })).toThrow(/query/);
    expect(() => ssoConfigFromEnv({ ...BASE, OIDC_ISSUER: "not a url" })).toThrow(/not a URL/);
    expect(ssoConfigFromEnv({ ...BASE, OIDC_ISSUER: "http://localhost:4000" })?.issuer).toBe("http://localhost:4000");
  });

  it("read allowed domains exactly, lower-cased", () => {
    expect(ssoConfigFromEnv({ ...BASE, OIDC_ALLOWED_DOMAINS: " A.org, @b.org ,," })?.allowedDomains).toEqual(["a.org", "b.org"]);
    expect(() => ssoConfigFromEnv({ ...BASE, OIDC_ALLOWED_DOMAINS: "a.org,*.b.org" })).toThrow(/not a domain/);
  });

  it("map a role claim only when both settings are given, to real roles", () => {
    const c = ssoConfigFromEnv({ ...BASE, OIDC_ROLE_CLAIM: "groups", OIDC_ROLE_MAP: "cg-graders=grader, cn=leads=LEAD" });
    expect(c?.roleClaim?.name).toBe("groups");
    expect([...c!.roleClaim!.map]).toEqual([
      ["cg-graders", "GRADER"],
      ["cn=leads", "LEAD"],
    ]);
    expect(() => ssoConfigFromEnv({ ...BASE, OIDC_ROLE_CLAIM: "groups" })).toThrow(/go together/);
    expect(() => ssoConfigFromEnv({ ...BASE, OIDC_ROLE_MAP: "a=GRADER" })).toThrow(/go together/);
    expect(() => ssoConfigFromEnv({ ...BASE, OIDC_ROLE_CLAIM: "groups", OIDC_ROLE_MAP: "a=ROOT" })).toThrow(/not a role/);
    expect(() => ssoConfigFromEnv({ ...BASE, OIDC_ROLE_CLAIM: "groups", OIDC_ROLE_MAP: "a=GRADER,a=ADMIN" })).toThrow(/two roles/);
    expect(() => ssoConfigFromEnv({ ...BASE, OIDC_ROLE_CLAIM: "groups", OIDC_ROLE_MAP: "GRADER" })).toThrow(/value=ROLE/);
  });

  it("AUTH_PASSWORDS is on or off, and off needs single sign-on", () => {
    expect(passwordsEnabled({})).toBe(true);
    expect(passwordsEnabled({ AUTH_PASSWORDS: "OFF" })).toBe(false);
    expect(() => passwordsEnabled({ AUTH_PASSWORDS: "no" })).toThrow(/on or off/);
    expect(() => checkSignInConfig({ AUTH_PASSWORDS: "off" })).toThrow(/needs single sign-on/);
    expect(checkSignInConfig({ ...BASE, AUTH_PASSWORDS: "off" })).toMatchObject({ passwords: false, sso: { clientId: "clingrade" } });
  });
});
