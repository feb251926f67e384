/**
 * Login throttling policy, pure so it can be tested without a server. Failures
 * are counted over a sliding window from the LoginAttempt table, so every app
 * instance agrees. The attacker is refused, not the account: a limit per
 * account and address pair and one per address refuse; failures on the account
 * from every address only slow each attempt down, so the real user, from
 * their own address, still signs in while someone else guesses.
 */
export interface ThrottleConfig {
  windowMs: number;
  /** Failures on the account (from any address) before each further attempt is slowed down. */
  slowAfter: number;
  /** Failures of one address on one account after which that pair is refused until the window passes. */
  pairRefuseAfter: number;
  /** Failures of one address (on any accounts) after which that address is refused. */
  addressRefuseAfter: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_THROTTLE: ThrottleConfig = {
  windowMs: 15 * 60_000,
  slowAfter: 3,
  pairRefuseAfter: 10,
  addressRefuseAfter: 50,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
};

export type ThrottleDecision =
  | { action: "allow"; delayMs: number }
  | { action: "refuse"; retryAfterMs: number; scope: "pair" | "address" };

/** Failures in the window before this attempt; attempts still being checked count as failures. */
export interface FailureCounts {
  pairFailures: number;
  oldestPairFailureAt: Date | null;
  addressFailures: number;
  oldestAddressFailureAt: Date | null;
  accountFailures: number;
}

export function decideThrottle(counts: FailureCounts, now: Date, config: ThrottleConfig = DEFAULT_THROTTLE): ThrottleDecision {
  const retryAfter = (oldest: Date | null) => Math.max(1_000, (oldest?.getTime() ?? now.getTime()) + config.windowMs - now.getTime());
  if (counts.pairFailures >= config.pairRefuseAfter) {
    return { action: "refuse", retryAfterMs: retryAfter(counts.oldestPairFailureAt), scope: "pair" };
  }
  if (counts.addressFailures >= config.addressRefuseAfter) {
    return { action: "refuse", retryAfterMs: retryAfter(counts.oldestAddressFailureAt), scope: "address" };
  }
  const over = counts.accountFailures - config.slowAfter;
  const delayMs = over < 0 ? 0 : Math.min(config.maxDelayMs, config.baseDelayMs * 2 ** Math.min(over, 30));
  return { action: "allow", delayMs };
}

export function throttleConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ThrottleConfig {
  const num = (name: string, fallback: number) => {
    const v = env[name];
    return v !== undefined && v !== "" && Number.isFinite(Number(v)) && Number(v) >= 0 ? Number(v) : fallback;
  };
  return {
    windowMs: num("LOGIN_WINDOW_MS", DEFAULT_THROTTLE.windowMs),
    slowAfter: num("LOGIN_SLOW_AFTER", DEFAULT_THROTTLE.slowAfter),
    pairRefuseAfter: num("LOGIN_REFUSE_AFTER", DEFAULT_THROTTLE.pairRefuseAfter),
    addressRefuseAfter: num("LOGIN_IP_REFUSE_AFTER", DEFAULT_THROTTLE.addressRefuseAfter),
    baseDelayMs: num("LOGIN_BASE_DELAY_MS", DEFAULT_THROTTLE.baseDelayMs),
    maxDelayMs: num("LOGIN_MAX_DELAY_MS", DEFAULT_THROTTLE.maxDelayMs),
  };
}
