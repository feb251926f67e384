import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { StartupError } from "@/lib/db/embedded";

/**
 * AUTH_SECRET signs session cookies. A deployment must set it; the demo and the
 * dev server generate one once and keep it in .data/auth-secret (mode 600), so
 * sessions survive restarts. The value itself is never printed.
 */
export async function resolveAuthSecret(opts: { allowGenerated: boolean; dataDir: string; warn: (m: string) => void }): Promise<string> {
  const fromEnv = process.env.AUTH_SECRET?.trim();
  if (fromEnv) {
    if (fromEnv.length < 32) throw new StartupError("AUTH_SECRET is shorter than 32 characters. Generate one with: openssl rand -base64 32");
    return fromEnv;
  }
  if (!opts.allowGenerated) {
    throw new StartupError(
      "AUTH_SECRET is not set; the production server refuses to start without it. Generate one with `openssl rand -base64 32` and set AUTH_SECRET (or use `npm run demo` for a local demo).",
    );
  }
  const file = path.join(opts.dataDir, "auth-secret");
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  await mkdir(opts.dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  await writeFile(file, secret + "\n", { mode: 0o600 });
  opts.warn(`AUTH_SECRET is not set: generated one and saved it in ${file}. Set AUTH_SECRET yourself for any real deployment.`);
  return secret;
}
