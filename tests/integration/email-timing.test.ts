import { describe, expect, it } from "vitest";
import { POST as addGraderRoute } from "@/app/api/v1/studies/[id]/graders/route";
import { authenticate } from "@/lib/auth/login";
import { bearer, call, makeStudy, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

/**
 * Neither the answer nor the time of an endpoint taking an e-mail tells
 * whether the address has an account: sign-in (an account with a wrong
 * password against no account) and adding a grader (an account that cannot be
 * a grader against no account, both refused with the one CANNOT_ADD answer).
 * 30 alternating calls each; the median paired gap must lie within TOLERANCE_MS, which a
 * deliberate 50 ms difference on one path fails (checked by adding a sleep).
 * The figures are in bench/README.md ("mail / invitations").
 */
useIsolatedDatabase();

const ROUNDS = 30;
const TOLERANCE_MS = 25;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await run();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

/**
 * Calls both paths in turn (which goes first alternates), after a warm-up. The
 * gap is the median of each round's difference: on a shared, loaded machine a
 * slow spell then lands on both sides of a pair, not on one path's median.
 */
async function race<T>(withAccount: (i: number) => Promise<T>, without: (i: number) => Promise<T>) {
  for (let i = 0; i < 3; i++) {
    await withAccount(ROUNDS + i);
    await without(ROUNDS + i);
  }
  const a: number[] = [];
  const b: number[] = [];
  const answers = new Set<string>();
  for (let i = 0; i < ROUNDS; i++) {
    const first = i % 2 ? "a" : "b";
    for (const which of [first, first === "a" ? "b" : "a"]) {
      const r = await timed(() => (which === "a" ? withAccount(i) : without(i)));
      (which === "a" ? a : b).push(r.ms);
      answers.add(JSON.stringify(r.value));
    }
  }
  return { withAccount: median(a), without: median(b), gap: median(a.map((x, i) => x - b[i])), answers };
}

describe("an e-mail's account is told neither by the answer nor by the time", () => {
  it("sign-in: a wrong password for an account and an address with no account", async () => {
    const accounts: Awaited<ReturnType<typeof makeUser>>[] = [];
    for (let i = 0; i < ROUNDS + 3; i++) accounts.push(await makeUser("GRADER", `timed${i}`));
    // Each call from its own address on its own account: no throttle's delay plays a part.
    const r = await race(
      (i) => authenticate({ email: accounts[i].email, password: "not-the-password", ip: `198.51.100.${i + 1}` }),
      (i) => authenticate({ email: `nobody-${i}@test.clingrade.org`, password: "not-the-password", ip: `203.0.113.${i + 1}` }),
    );
    console.log(`sign-in medians: account ${r.withAccount.toFixed(1)} ms, no account ${r.without.toFixed(1)} ms, paired gap ${r.gap.toFixed(1)} ms`);
    expect([...r.answers]).toEqual([JSON.stringify({ ok: false, reason: "invalid" })]);
    expect(Math.abs(r.gap)).toBeLessThan(TOLERANCE_MS);
  });

  it("adding a grader: an account that cannot be one and an address with no account (and no name)", async () => {
    const lead = await makeUser("LEAD");
    const study = await makeStudy(lead.id);
    const others: Awaited<ReturnType<typeof makeUser>>[] = [];
    for (let i = 0; i < 5; i++) others.push(await makeUser("LEAD", `other-lead${i}`));
    const add = (email: string) => async () => {
      const res = await call(addGraderRoute, "/x", bearer(lead.token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email }) }), { id: study.id });
      return { status: res.status, body: res.body };
    };
    const r = await race(
      (i) => add(others[i % others.length].email)(),
      (i) => add(`nobody-${i}@test.clingrade.org`)(),
    );
    console.log(`add grader medians: account ${r.withAccount.toFixed(1)} ms, no account ${r.without.toFixed(1)} ms, paired gap ${r.gap.toFixed(1)} ms`);
    expect(r.answers.size).toBe(1);
    expect([...r.answers][0]).toContain("no grader account with this email can be added");
    expect(Math.abs(r.gap)).toBeLessThan(TOLERANCE_MS);
  });
});
