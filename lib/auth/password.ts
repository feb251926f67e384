import { hash, verify } from "@node-rs/argon2";

// Argon2id (the library's default algorithm) with OWASP's second recommended
// profile: 19 MiB memory, 2 iterations, 1 lane.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export { MIN_PASSWORD_LENGTH } from "./password-rule";

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false; // a malformed hash never authenticates
  }
}

/** A hash of nothing, verified against when the account does not exist, so both paths take as long. */
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword("clingrade-timing-equaliser");
  await verifyPassword(await dummyHash, password);
  return false;
}
