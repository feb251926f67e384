/**
 * A real OpenID provider (the `oidc-provider` package, certified) for the
 * single sign-on tests, run inside the Playwright worker. Its login page takes
 * any password; who signs in is the login typed, one of `accounts`. Some
 * accounts make the provider misbehave the way an attacker or a broken
 * provider would:
 *   tamper "expired"         the id token is re-signed (with the provider's own key) an hour expired
 *   tamper "foreign-issuer"  the id token is re-signed naming another issuer
 * and `lieAboutIssuer(true)` makes the discovery document at the configured
 * issuer describe a second provider (another issuer, on another port): every
 * token then comes from that issuer, all of it valid for openid-client.
 */
import { generateKeyPairSync, sign } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type Configuration, type KoaContextWithOIDC } from "oidc-provider";

export interface TestAccount {
  email: string;
  email_verified: boolean;
  name: string;
  tamper?: "expired" | "foreign-issuer";
}

export interface TestIdp {
  issuer: string;
  otherIssuer: string;
  lieAboutIssuer(on: boolean): void;
  close(): Promise<void>;
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString("base64url");

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, resolve));
  return (server.address() as AddressInfo).port;
}

export async function startIdp(opts: { clientId: string; clientSecret: string; redirectUri: string; accounts: Record<string, TestAccount> }): Promise<TestIdp> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: "jwk" }), kid: "e2e-key", alg: "RS256", use: "sig" };

  /** Re-signs an id token with changed claims: a token the provider's key vouches for, but wrong. */
  function tampered(idToken: string): string {
    const [header, payload] = idToken.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown> & { sub: string };
    const tamper = opts.accounts[claims.sub]?.tamper;
    if (!tamper) return idToken;
    const now = Math.floor(Date.now() / 1000);
    const changed = tamper === "expired" ? { ...claims, iat: now - 7200, exp: now - 3600 } : { ...claims, iss: "http://localhost:1/another-issuer" };
    const body = `${header}.${b64url(JSON.stringify(changed))}`;
    return `${body}.${b64url(sign("sha256", Buffer.from(body), privateKey))}`;
  }

  function makeProvider(issuer: string): Provider {
    const configuration: Configuration = {
      clients: [
        {
          client_id: opts.clientId,
          client_secret: opts.clientSecret,
          redirect_uris: [opts.redirectUri],
          response_types: ["code"],
          grant_types: ["authorization_code"],
          token_endpoint_auth_method: "client_secret_basic",
        },
      ],
      jwks: { keys: [jwk] },
      cookies: { keys: ["e2e-idp-cookie-key-0123456789"] },
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
      features: { devInteractions: { enabled: true } },
      async findAccount(_ctx: KoaContextWithOIDC, id: string) {
        const account = opts.accounts[id];
        if (!account) return undefined;
        return { accountId: id, claims: async () => ({ sub: id, email: account.email, email_verified: account.email_verified, name: account.name }) };
      },
      // A first-party client: no consent page, the grant is made at once.
      async loadExistingGrant(ctx: KoaContextWithOIDC) {
        const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
        if (grantId) return ctx.oidc.provider.Grant.find(grantId);
        const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId });
        grant.addOIDCScope("openid email profile");
        await grant.save();
        return grant;
      },
    };
    const provider = new Provider(issuer, configuration);
    provider.use(async (ctx, next) => {
      await next();
      const body = ctx.body as { id_token?: unknown } | undefined;
      if (ctx.path === "/token" && body && typeof body.id_token === "string") body.id_token = tampered(body.id_token);
    });
    return provider;
  }

  let lie = false;
  const otherServer = http.createServer();
  const otherPort = await listen(otherServer);
  const other = makeProvider(`http://localhost:${otherPort}`);
  otherServer.on("request", other.callback());

  const server = http.createServer();
  const port = await listen(server);
  const main = makeProvider(`http://localhost:${port}`);
  const mainHandler = main.callback();
  server.on("request", (req, res) => {
    if (!lie || !req.url?.startsWith("/.well-known/")) return mainHandler(req, res);
    // The other provider's own document (it names its endpoints from the address it is asked at).
    fetch(`http://localhost:${otherPort}${req.url}`)
      .then(async (r) => res.writeHead(r.status, { "content-type": r.headers.get("content-type") ?? "application/json" }).end(await r.text()))
      .catch(() => res.writeHead(502).end());
  });

  const close = (s: http.Server) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve())));
  return {
    issuer: `http://localhost:${port}`,
    otherIssuer: `http://localhost:${otherPort}`,
    lieAboutIssuer: (on) => void (lie = on),
    close: async () => void (await Promise.all([close(server), close(otherServer)])),
  };
}
