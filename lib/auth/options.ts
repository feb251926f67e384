import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { authenticate } from "./login";
import { revokeSession, SESSION_MAX_AGE_S } from "./sessions";
import { clientAddress } from "@/lib/server/client-address";
import { logger } from "@/lib/server/logger";
import { lineText, multilineText } from "@/lib/validation/text";

/**
 * next-auth v4 with the Credentials provider. Credentials sign-in only works with
 * JWT sessions in next-auth, so the JWT carries nothing but the id of an
 * AuthSession row; the guard reads that row (and the user) on every request.
 * Sign-out revokes the row, so a copied cookie is dead afterwards too.
 */
export const THROTTLED_PREFIX = "THROTTLED:";

/** What the sign-in form may send: anything else is wrong credentials, never a query that fails. */
const credentialsSchema = z.object({ email: lineText().min(1).max(320), password: multilineText().min(1).max(1024) });

export const authOptions: NextAuthOptions = {
  secret: process.env.AUTH_SECRET,
  // Secure cookies whenever the app is served over https (every real deployment);
  // the local demo on http://localhost cannot use them. next-auth sets httpOnly and SameSite=Lax itself.
  useSecureCookies: (process.env.NEXTAUTH_URL ?? "").startsWith("https://"),
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
  pages: { signIn: "/login", error: "/login" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(raw, req) {
        const parsed = credentialsSchema.safeParse(raw);
        if (!parsed.success) return null;
        const credentials = parsed.data;
        const headers = new Headers();
        for (const [k, v] of Object.entries(req?.headers ?? {})) if (v !== undefined) headers.set(k, String(v));
        const result = await authenticate({
          email: credentials.email,
          password: credentials.password,
          ip: clientAddress(headers),
          userAgent: headers.get("user-agent") ?? undefined,
        }).catch((err: unknown) => {
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
    }),
  ],
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
