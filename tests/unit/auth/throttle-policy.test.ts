import { describe, expect, it } from "vitest";
import { decideThrottle, DEFAULT_THROTTLE, throttleConfigFromEnv } from "@/lib/auth/throttle-policy";

const now = new Date("2026-11-30T12:00:00Z");
const counts = (accountFailures: number, { pair = 0, address = 0 } = {}) => ({
  accountFailures,
  pairFailures: pair,
  oldestPairFailureAt: pair ? new Date(now.getTime() - 60_000) : null,
  addressFailures: address,
  oldestAddressFailureAt: address ? new Date(now.getTime() - 120_000) : null,
});

describe("login throttling policy", () => {
  it("lets the first failures on an account through without delay", () => {
    for (let n = 0; n < DEFAULT_THROTTLE.slowAfter; n++) {
      expect(decideThrottle(counts(n), now)).toEqual({ action: "allow", delayMs: 0 });
    }
  });

  it("slows further attempts on the account down exponentially, up to the cap, and never refuses for them", () => {
    const delays = [3, 4, 5, 6, 7, 8, 9, 10, 500, 100_000].map((n) => {
      const d = decideThrottle(counts(n), now);
      if (d.action !== "allow") throw new Error("expected allow");
      return d.delayMs;
    });
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000, 4000, 4000, 4000]);
  });

  it("refuses an account and address pair after too many failures until the window has passed", () => {
    expect(decideThrottle(counts(0, { pair: DEFAULT_THROTTLE.pairRefuseAfter - 1 }), now)).toMatchObject({ action: "allow" });
    const d = decideThrottle(counts(0, { pair: DEFAULT_THROTTLE.pairRefuseAfter }), now);
    expect(d).toEqual({ action: "refuse", scope: "pair", retryAfterMs: DEFAULT_THROTTLE.windowMs - 60_000 });
  });

  it("refuses an address that fails across many accounts", () => {
    const d = decideThrottle(counts(0, { address: DEFAULT_THROTTLE.addressRefuseAfter }), now);
    expect(d).toMatchObject({ action: "refuse", scope: "address", retryAfterMs: DEFAULT_THROTTLE.windowMs - 120_000 });
  });

  it("reads overrides from the environment and ignores junk", () => {
    const c = throttleConfigFromEnv({ LOGIN_REFUSE_AFTER: "4", LOGIN_IP_REFUSE_AFTER: "7", LOGIN_BASE_DELAY_MS: "abc", LOGIN_MAX_DELAY_MS: "-5" } as unknown as NodeJS.ProcessEnv);
    expect(c.pairRefuseAfter).toBe(4);
    expect(c.addressRefuseAfter).toBe(7);
    expect(c.baseDelayMs).toBe(DEFAULT_THROTTLE.baseDelayMs);
    expect(c.maxDelayMs).toBe(DEFAULT_THROTTLE.maxDelayMs);
  });
});
