/**
 * Login throttling policy, pure so it can be tested without a server. Failures
 * are counted per account (email) and per client address over a sliding window;
 * the counts come from the LoginAttempt table so every app instance agrees.
 */
export interface ThrottleConfig {
  windowMs: number;
  /** Failures per account before each further attempt is slowed down. */
  accountSlowAfter: number;
  /** Failures per account after which attempts are refused until the window passes. */
  accountRefuseAfter: number;
  /** Failures per address (many accounts) after which that address is refused. */
  ipRefuseAfter: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_THROTTLE: ThrottleConfig = {
  windowMs: 15 * 60_000,
  accountSlowAfter: 3,
  accountRefuseAfter: 10,
  ipRefuseAfter: 50,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
};

export type ThrottleDecision =
  | { action: "allow"; delayMs: number }
  | { action: "refuse"; retryAfterMs: number; scope: "account" | "address" };

export interface FailureCounts {
  accountFailures: number;
  oldestAccountFailureAt: Date | null;
  ipFailures: number;
  oldestIpFailureAt: Date | null;
}

export function decideThrottle(counts: FailureCounts, now: Date, config: ThrottleConfig = DEFAULT_THROTTLE): ThrottleDecision {
  const retryAfter = (oldest: Date | null) => Math.max(1_000, (oldest?.getTime() ?? now.getTime()) + config.windowMs - now.getTime());
  if (counts.accountFailures >= config.accountRefuseAfter) {
    return { action: "refuse", retryAfterMs: retryAfter(counts.oldestAccountFailureAt), scope: "account" };
  }
  if (counts.ipFailures >= config.ipRefuseAfter) {
    return { action: "refuse", retryAfterMs: retryAfter(counts.oldestIpFailureAt), scope: "address" };
  }
  const over = counts.accountFailures - config.accountSlowAfter;
  const delayMs = over < 0 ? 0 : Math.min(config.maxDelayMs, config.baseDelayMs * 2 ** over);
  return { action: "allow", delayMs };
}

export function throttleConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ThrottleConfig {
  const num = (name: string, fallback: number) => {
    const v = env[name];
    return v !== undefined && v !== "" && Number.isFinite(Number(v)) ? Number(v) : fallback;
  };
  return {
    windowMs: num("LOGIN_WINDOW_MS", DEFAULT_THROTTLE.windowMs),
    accountSlowAfter: num("LOGIN_SLOW_AFTER", DEFAULT_THROTTLE.accountSlowAfter),
    accountRefuseAfter: num("LOGIN_REFUSE_AFTER", DEFAULT_THROTTLE.accountRefuseAfter),
    ipRefuseAfter: num("LOGIN_IP_REFUSE_AFTER", DEFAULT_THROTTLE.ipRefuseAfter),
    baseDelayMs: num("LOGIN_BASE_DELAY_MS", DEFAULT_THROTTLE.baseDelayMs),
    maxDelayMs: num("LOGIN_MAX_DELAY_MS", DEFAULT_THROTTLE.maxDelayMs),
  };
}
