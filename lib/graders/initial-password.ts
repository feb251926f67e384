import { randomInt } from "node:crypto";

/**
 * Letters and digits that survive being read aloud or copied from a screen:
 * no 0/o, 1/l/i. 31 symbols, so each one carries about 4.95 bits.
 */
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const GROUPS = 4;
const GROUP_LENGTH = 5;

/**
 * A one-time initial password for a new grader: 4 groups of 5 symbols from a
 * 31-symbol alphabet (about 99 bits, from the OS CSPRNG with unbiased
 * `randomInt`), e.g. `k7mzq-4hxta-...`. It is returned once for the lead to
 * hand over; only its Argon2id hash is stored.
 */
export function generateInitialPassword(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    let group = "";
    for (let i = 0; i < GROUP_LENGTH; i++) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return groups.join("-");
}

export const INITIAL_PASSWORD_PATTERN = new RegExp(`^[${ALPHABET}]{${GROUP_LENGTH}}(-[${ALPHABET}]{${GROUP_LENGTH}}){${GROUPS - 1}}$`);
