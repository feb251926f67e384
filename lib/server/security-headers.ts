/**
 * The Content-Security-Policy and Strict-Transport-Security values, shared by
 * next.config.ts (the fixed policy for what proxy.ts does not see: static
 * files and the upload routes) and proxy.ts (every page and the rest of the
 * API, with a fresh nonce per request). No Node-only imports: proxy.ts runs
 * this on every request and next.config.ts at build time.
 */

/** A fresh, unguessable nonce (128 bits, base64) for one response. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * Scripts run only with the response's nonce (Next puts it on its own tags when
 * it renders the page) or when a nonced script loads them ('strict-dynamic'):
 * no 'unsafe-inline' for scripts. Without a nonce (static files, upload
 * routes: no HTML), same-origin scripts only. Styles keep 'unsafe-inline':
 * Radix and Recharts write inline style attributes, which nonces cannot cover,
 * and a nonce in style-src would make browsers ignore 'unsafe-inline'.
 * 'unsafe-eval' is for the development server's error overlay only.
 */
export function contentSecurityPolicy(opts: { nonce?: string; dev?: boolean } = {}): string {
  const script = ["'self'", ...(opts.nonce ? [`'nonce-${opts.nonce}'`, "'strict-dynamic'"] : []), ...(opts.dev ? ["'unsafe-eval'"] : [])];
  return [
    "default-src 'self'",
    `script-src ${script.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

/**
 * HSTS when the app's public address (NEXTAUTH_URL, which also makes the
 * session cookies Secure) is https: the TLS is then a proxy's in front of us,
 * and the header is what tells browsers never to fall back to http. Decided
 * by that setting rather than X-Forwarded-Proto, which any client can send
 * when no proxy strips it. Over plain http (the local demo) it is not sent.
 */
export function strictTransportSecurity(publicUrl: string | undefined): string | null {
  return publicUrl?.trim().toLowerCase().startsWith("https://") ? "max-age=31536000; includeSubDomains" : null;
}
