import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * API keys an admin enters are stored encrypted at rest: AES-256-GCM, with a
 * key derived (HKDF-SHA256) from CLINGRADE_SECRET_KEY, else AUTH_SECRET, and
 * the endpoint's id as associated data, so a ciphertext copied onto another
 * endpoint does not open. Changing the secret makes stored keys unreadable:
 * the admin enters them again (the error says so).
 */
const VERSION = "v1";

function key(): Buffer {
  const secret = process.env.CLINGRADE_SECRET_KEY?.trim() || process.env.AUTH_SECRET?.trim();
  if (!secret || secret.length < 32) throw new Error("set CLINGRADE_SECRET_KEY (or AUTH_SECRET), at least 32 characters, to store judge API keys");
  return Buffer.from(hkdfSync("sha256", secret, "clingrade", "judge-endpoint-api-key", 32));
}

export function encryptApiKey(plain: string, endpointId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  cipher.setAAD(Buffer.from(`judge-endpoint:${endpointId}`));
  const ct = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64"), cipher.getAuthTag().toString("base64"), ct.toString("base64")].join(".");
}

export class SecretUnreadable extends Error {}

export function decryptApiKey(stored: string, endpointId: string): string {
  const [version, iv, tag, ct] = stored.split(".");
  if (version !== VERSION || !iv || !tag || ct === undefined) throw new SecretUnreadable("the stored API key is not in a known format: enter it again");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64"));
    decipher.setAAD(Buffer.from(`judge-endpoint:${endpointId}`));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(ct, "base64")), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretUnreadable("the stored API key cannot be decrypted (CLINGRADE_SECRET_KEY or AUTH_SECRET changed?): an admin enters it again");
  }
}

/** Environment variables an endpoint may name for its key: not any variable, so an admin cannot send DATABASE_URL to a server of their choice. */
export const API_KEY_ENV = /^(OPENAI_API_KEY|CLINGRADE_JUDGE_[A-Z0-9_]{1,60})$/;

/** An endpoint's API key as its requests send it: the stored one decrypted, else the named environment variable's, else none. */
export function endpointApiKey(e: { id: string; apiKeyEncrypted: string | null; apiKeyEnv: string | null }): string | null {
  return e.apiKeyEncrypted ? decryptApiKey(e.apiKeyEncrypted, e.id) : e.apiKeyEnv ? (process.env[e.apiKeyEnv] ?? null) : null;
}
