import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import type { OAuthConfig } from "next-auth/providers/oauth";
import type { TokenSet } from "openid-client";
import { z } from "zod";
import { invitationTokenFrom } from "./invitation-cookie";
import { authenticate } from "./login";
import { revokeSession, SESSION_MAX_AGE_S } from "./sessions";
import { signInWithOidc, type SsoRefusal } from "./sso";
import { passwordsEnabled, ssoConfigFromEnv, type SsoConfig } from "./sso-config";
import { clientAddress } from "@/lib/log/client-address";
import { logger } from "@/lib/log/logger";
import { lineText, multilineText } from "@/lib/validation/text";

/**
 * next-auth v4 with the Credentials provider (unless AUTH_PASSWORDS=off) and,
 * when OIDC_ISSUER is set, an OpenID Connect provider (lib/auth/sso-config.ts).
 * Credentials sign-in only works with JWT sessions in next-auth, so the JWT
 * carries nothing but the id of an AuthSession row, for either way in; the
 * guard reads that row (and the user) on every request. Sign-out revokes the
 * row, so a copied cookie is dead afterwards too. next-auth keeps the OpenID
 * flow's state, PKCE verifier and nonce in short-lived encrypted cookies, so
 * any app instance can finish a sign-in another one started.
 */
export const THROTTLED_PREFIX = "THROTTLED:";

/** The provider id: the callback URL to register at the provider is <NEXTAUTH_URL>/api/auth/callback/oidc. */
export const OIDC_PROVIDER_ID = "oidc";

/** Where a refused single sign-on lands: the sign-in page explains each code (components/auth/sign-in-errors.ts). */
export const SSO_ERROR_CODES: Record<SsoRefusal, string> = {
  issuer: "SsoIssuer",
  unverified: "SsoUnverified",
  domain: "SsoDomain",
  not_invited: "SsoNotInvited",
  conflict: "SsoConflict",
  role: "SsoRole",
  invalid: "SsoInvalid",
  invitation: "SsoInvitation",
};

interface RequestMeta {
  ip: string;
  userAgent?: string;
}

function requestMeta(raw: Headers | Record<string, unknown> | undefined): RequestMeta {
  const headers = new Headers();
  if (raw instanceof Headers) raw.forEach((v, k) => headers.set(k, v));
  else for (const [k, v] of Object.entries(raw ?? {})) if (v !== undefined) headers.set(k, String(v));
  return { ip: clientAddress(headers), userAgent: headers.get("user-agent") ?? undefined };
}

function oidcProvider(config: SsoConfig): OAuthConfig<Record<string, unknown>> {
  return {
    id: OIDC_PROVIDER_ID,
    name: config.label,
    type: "oauth",
    wellKnown: `${config.issuer}/.well-known/openid-configuration`,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    authorization: { params: { scope: "openid email profile" } },
    // The claims come from the id token, which openid-client verifies (signature, iss, aud, exp, nonce).
    idToken: true,
    userinfo: {
      // Completed from the userinfo endpoint, where some providers put the email only. The id token's
      // own claims win, and both must name the same subject (OpenID Connect Core 5.3.2).
      async request({ tokens, client }) {
        const set = tokens as TokenSet; // next-auth passes openid-client's TokenSet, typed by its parameters
        const claims = set.claims();
        if (!client.issuer.metadata.userinfo_endpoint) return claims;
        const info = await client.userinfo(set);
        if (info.sub !== claims.sub) throw new Error("the userinfo endpoint named another subject than the id token");
        return { ...info, ...claims };
      },
    },
    checks: ["pkce", "state", "nonce"],
    client: { token_endpoint_auth_method: "client_secret_basic", id_token_signed_response_alg: "RS256" },
    profile: (claims) => ({ id: String(claims.sub ?? "") }),
  };
}

/** What the sign-in form may send: anything else is wrong credentials, never a query that fails. */
const credentialsSchema = z.object({ email: lineText().min(1).max(320), password: multilineText().min(1).max(1024) });

const credentialsProvider = CredentialsProvider({
  name: "Email and password",
  credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
  async authorize(raw, req) {
    if (!passwordsEnabled()) return null;
    const parsed = credentialsSchema.safeParse(raw);
    if (!parsed.success) return null;
    const credentials = parsed.data;
    const result = await authenticate({ email: credentials.email, password: credentials.password, ...requestMeta(req?.headers) }).catch((err: unknown) => {
      // next-auth would put the message in the redirect URL: log it, show nothing of it.
      logger.error({ err }, "sign-in failed");
      throw new Error("SIGN_IN_FAILED");
    });
    if (result.ok) return { id: result.userId, sid: result.sessionId };
    if (result.reason === "throttled") {
      // next-auth passes a thrown message to the client as `error`.
      throw new Error(`${THROTTLED_PREFIX}${Math.ceil(result.retryAfterMs / 60_000)}`);
    }
    return null;
  },
});

const base: Omit<NextAuthOptions, "providers"> = {
  secret: process.env.AUTH_SECRET,
  // Secure cookies whenever the app is served over https (every real deployment);
  // the local demo on http://localhost cannot use them. next-auth sets httpOnly and SameSite=Lax itself.
  useSecureCookies: (process.env.NEXTAUTH_URL ?? "").startsWith("https://"),
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
  pages: { signIn: "/login", error: "/login" },
  callbacks: {
    async jwt({ token, user }) {
      if (user) {
        const u = user as { id: string; sid?: string };
        return { sub: u.id, sid: u.sid };
      }
      return token;
    },
    // The browser's session object carries no identifiers beyond the user id;
    // names and roles are read from the database by the server.
    async session({ session, token }) {
      return { expires: session.expires, user: { id: token.sub } } as typeof session;
    },
  },
  events: {
    async signOut({ token }) {
      const sid = (token as { sid?: unknown } | null)?.sid;
      if (typeof sid === "string") await revokeSession(sid);
    },
  },
};

/**
 * The options for one request (its headers give the session row its address
 * and browser); `authOptions` is the same without a request.
 */
export function authOptionsFor(request?: { headers: Headers }, env: Record<string, string | undefined> = process.env): NextAuthOptions {
  const sso = ssoConfigFromEnv(env);
  const passwords = passwordsEnabled(env);
  return {
    ...base,
    providers: [...(passwords ? [credentialsProvider] : []), ...(sso ? [oidcProvider(sso)] : [])],
    callbacks: {
      ...base.callbacks,
      async signIn({ user, account, profile }) {
        if (account?.provider !== OIDC_PROVIDER_ID) return account?.provider === "credentials" && passwords;
        if (!sso) return false;
        const invitationToken = invitationTokenFrom(request?.headers);
        const meta = { ...requestMeta(request?.headers), ...(invitationToken ? { invitationToken } : {}) };
        const result = await signInWithOidc(profile, sso, meta).catch((err: unknown) => {
          logger.error({ err }, "single sign-on failed");
          return null;
        });
        if (!result) return "/login?error=Callback";
        if (!result.ok) return `/login?error=${SSO_ERROR_CODES[result.reason]}`;
        // next-auth hands this same object to the jwt callback, which keeps only these two.
        Object.assign(user, { id: result.userId, sid: result.sessionId });
        return true;
      },
    },
  };
}

export const authOptions: NextAuthOptions = authOptionsFor();
