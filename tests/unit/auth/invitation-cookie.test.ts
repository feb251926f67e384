import { describe, expect, it } from "vitest";
import { dropInvitationCookieAfterCallback, invitationCookie, invitationTokenFrom } from "@/lib/auth/invitation-cookie";

const TOKEN = "A".repeat(43);
const redirect = () => new Response(null, { status: 302, headers: [["location", "/queue"], ["set-cookie", "next-auth.session-token=jwt; Path=/; HttpOnly"]] });
const withCookie = (path: string) => ({ url: `http://app.test${path}`, headers: new Headers({ cookie: `a=1; clingrade-invitation=${TOKEN}; b=2` }) });

describe("the invitation's cookie for a single sign-on", () => {
  it("is HttpOnly, Lax, for /api/auth only, ten minutes, Secure behind https", () => {
    expect(invitationCookie(TOKEN, {})).toBe(`clingrade-invitation=${TOKEN}; Path=/api/auth; Max-Age=600; HttpOnly; SameSite=Lax`);
    expect(invitationCookie(TOKEN, { NEXTAUTH_URL: "https://grading.example" })).toMatch(/; Secure$/);
  });

  it("is read from the cookie header among others", () => {
    expect(invitationTokenFrom(withCookie("/").headers)).toBe(TOKEN);
    expect(invitationTokenFrom(new Headers({ cookie: "clingrade-invitation-x=1" }))).toBeUndefined();
    expect(invitationTokenFrom(undefined)).toBeUndefined();
  });

  it("is deleted by the provider callback's answer, which keeps its own cookies and redirect", () => {
    const res = dropInvitationCookieAfterCallback(withCookie("/api/auth/callback/oidc"), redirect());
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/queue");
    expect(res.headers.getSetCookie()).toEqual(["next-auth.session-token=jwt; Path=/; HttpOnly", expect.stringMatching(/^clingrade-invitation=; Path=\/api\/auth; Max-Age=0;/)]);
    // Other next-auth answers, and callbacks without the cookie, are passed through as they are.
    expect(dropInvitationCookieAfterCallback(withCookie("/api/auth/session"), redirect()).headers.getSetCookie()).toHaveLength(1);
    expect(dropInvitationCookieAfterCallback({ url: "http://app.test/api/auth/callback/oidc", headers: new Headers() }, redirect()).headers.getSetCookie()).toHaveLength(1);
  });
});
