import { describe, expect, it } from "vitest";
import { decideThrottle, DEFAULT_THROTTLE, throttleConfigFromEnv } from "@/lib/auth/throttle-policy";

const now = new Date("2026-11-30T12:00:00Z");
const counts = (accountFailures: number, ipFailures = 0) => ({
  accountFailures,
  oldestAccountFailureAt: accountFailures ? new Date(now.getTime() - 60_000) : null,
  ipFailures,
  oldestIpFailureAt: ipFailures ? new Date(now.getTime() - 120_000) : null,
});

describe("login throttling policy", () => {
  it("lets the first failures through without delay", () => {
    for (let n = 0; n < DEFAULT_THROTTLE.accountSlowAfter; n++) {
      expect(decideThrottle(counts(n), now)).toEqual({ action: "allow", delayMs: 0 });
    }
  });

  it("slows further attempts down exponentially, up to the cap", () => {
    const delays = [3, 4, 5, 6, 7, 8, 9].map((n) => {
      const d = decideThrottle(counts(n), now);
      if (d.action !== "allow") throw new Error("expected allow");
      return d.delayMs;
    });
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000]);
  });

  it("refuses an account after too many failures until the window has passed", () => {
    const d = decideThrottle(counts(DEFAULT_THROTTLE.accountRefuseAfter), now);
    expect(d).toEqual({ action: "refuse", scope: "account", retryAfterMs: DEFAULT_THROTTLE.windowMs - 60_000 });
  });

  it("refuses an address that fails across many accounts", () => {
    const d = decideThrottle(counts(0, DEFAULT_THROTTLE.ipRefuseAfter), now);
    expect(d).toMatchObject({ action: "refuse", scope: "address", retryAfterMs: DEFAULT_THROTTLE.windowMs - 120_000 });
  });

  it("reads overrides from the environment and ignores junk", () => {
    const c = throttleConfigFromEnv({ LOGIN_REFUSE_AFTER: "4", LOGIN_BASE_DELAY_MS: "abc" } as unknown as NodeJS.ProcessEnv);
    expect(c.accountRefuseAfter).toBe(4);
    expect(c.baseDelayMs).toBe(DEFAULT_THROTTLE.baseDelayMs);
  });
});
