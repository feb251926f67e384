import { Role } from "@/lib/generated/prisma/enums";

/**
 * Single sign-on with OpenID Connect, configured by environment:
 *
 *   OIDC_ISSUER           the provider's issuer URL (https; http only for localhost)
 *   OIDC_CLIENT_ID        this app's client at the provider
 *   OIDC_CLIENT_SECRET
 *   OIDC_NAME             what the sign-in button says (default "single sign-on")
 *   OIDC_ALLOWED_DOMAINS  optional: only emails at these domains (exact, comma-separated)
 *   OIDC_ROLE_CLAIM       optional, with OIDC_ROLE_MAP: a claim the provider must
 *   OIDC_ROLE_MAP         send, e.g. groups, and `value=ROLE,...`; a sign-in is refused
 *                         unless the claim holds a value mapped to the account's role.
 *                         It never gives or changes a role: roles are set in Clingrade.
 *   AUTH_PASSWORDS        on (default) or off: off hides and refuses password sign-in.
 *
 * A wrong setting stops the server at start (scripts/start.ts), not at a sign-in.
 */
export interface SsoConfig {
  /** As configured, without a trailing slash; compared with `iss` the same way. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  label: string;
  /** Lower-case domains; null: any domain. */
  allowedDomains: string[] | null;
  /** null: the provider's claims play no part in roles (the default). */
  roleClaim: { name: string; map: ReadonlyMap<string, Role> } | null;
}

export class SsoConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SsoConfigError";
  }
}

type Env = Record<string, string | undefined>;

const value = (env: Env, name: string) => {
  const v = env[name]?.trim();
  return v ? v : undefined;
};

export function trimIssuer(issuer: string): string {
  return issuer.replace(/\/+$/, "");
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

function parseIssuer(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SsoConfigError(`OIDC_ISSUER is not a URL: ${raw}`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOCAL_HOSTS.has(url.hostname))) {
    throw new SsoConfigError("OIDC_ISSUER must be an https URL (http is allowed for localhost only)");
  }
  if (url.search || url.hash || url.username || url.password) throw new SsoConfigError("OIDC_ISSUER must not carry a query, fragment or credentials");
  return trimIssuer(raw);
}

function parseDomains(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const domains = raw
    .split(",")
    .map((d) => d.trim().toLowerCase().replace(/^@/, ""))
    .filter(Boolean);
  if (!domains.length) return null;
  for (const d of domains) if (!DOMAIN.test(d)) throw new SsoConfigError(`OIDC_ALLOWED_DOMAINS: "${d}" is not a domain name`);
  return domains;
}

function parseRoleClaim(name: string | undefined, map: string | undefined): SsoConfig["roleClaim"] {
  if (!name && !map) return null;
  if (!name || !map) throw new SsoConfigError("OIDC_ROLE_CLAIM and OIDC_ROLE_MAP go together: set both or neither");
  const roles = new Map<string, Role>();
  for (const pair of map.split(",")) {
    if (!pair.trim()) continue;
    const eq = pair.lastIndexOf("=");
    const claimValue = pair.slice(0, eq).trim();
    const role = pair.slice(eq + 1).trim().toUpperCase();
    if (eq < 1 || !claimValue) throw new SsoConfigError(`OIDC_ROLE_MAP: "${pair.trim()}" is not value=ROLE`);
    if (!(role in Role)) throw new SsoConfigError(`OIDC_ROLE_MAP: "${role}" is not a role (ADMIN, LEAD or GRADER)`);
    if (roles.has(claimValue) && roles.get(claimValue) !== role) throw new SsoConfigError(`OIDC_ROLE_MAP maps "${claimValue}" to two roles`);
    roles.set(claimValue, role as Role);
  }
  if (!roles.size) throw new SsoConfigError("OIDC_ROLE_MAP maps no value to a role");
  return { name, map: roles };
}

/** The single sign-on settings, or null when OIDC_ISSUER is not set. Throws SsoConfigError when they are wrong. */
export function ssoConfigFromEnv(env: Env = process.env): SsoConfig | null {
  const issuer = value(env, "OIDC_ISSUER");
  const clientId = value(env, "OIDC_CLIENT_ID");
  const clientSecret = value(env, "OIDC_CLIENT_SECRET");
  if (!issuer) {
    if (clientId || clientSecret || value(env, "OIDC_ALLOWED_DOMAINS") || value(env, "OIDC_ROLE_CLAIM") || value(env, "OIDC_ROLE_MAP")) {
      throw new SsoConfigError("OIDC_ISSUER is not set, but other OIDC_ settings are");
    }
    return null;
  }
  if (!clientId || !clientSecret) throw new SsoConfigError("OIDC_ISSUER is set: set OIDC_CLIENT_ID and OIDC_CLIENT_SECRET too");
  return {
    issuer: parseIssuer(issuer),
    clientId,
    clientSecret,
    label: value(env, "OIDC_NAME")?.slice(0, 60) ?? "single sign-on",
    allowedDomains: parseDomains(value(env, "OIDC_ALLOWED_DOMAINS")),
    roleClaim: parseRoleClaim(value(env, "OIDC_ROLE_CLAIM"), value(env, "OIDC_ROLE_MAP")),
  };
}

/** AUTH_PASSWORDS: on (the default) or off. */
export function passwordsEnabled(env: Env = process.env): boolean {
  const v = value(env, "AUTH_PASSWORDS")?.toLowerCase();
  if (v === undefined || v === "on") return true;
  if (v === "off") return false;
  throw new SsoConfigError(`AUTH_PASSWORDS must be on or off, not "${v}"`);
}

/** Every sign-in setting at once, as the server checks them at start: throws SsoConfigError. */
export function checkSignInConfig(env: Env = process.env): { passwords: boolean; sso: SsoConfig | null } {
  const passwords = passwordsEnabled(env);
  const sso = ssoConfigFromEnv(env);
  if (!passwords && !sso) throw new SsoConfigError("AUTH_PASSWORDS=off needs single sign-on: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET");
  return { passwords, sso };
}
