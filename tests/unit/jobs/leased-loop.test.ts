import { describe, expect, it } from "vitest";
import { startLeasedLoop } from "@/lib/jobs/leased-loop";

type Job = { id: string };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the leased-job loop", () => {
  it("claims up to its free slots, never more in flight than its concurrency, settles each job once, then is idle", async () => {
    const waiting: Job[] = Array.from({ length: 7 }, (_, i) => ({ id: `j${i}` }));
    const asked: number[] = [];
    let running = 0;
    let most = 0;
    const settled: string[] = [];
    const loop = startLeasedLoop<Job, string>({
      name: "test loop",
      concurrency: 3,
      leaseMs: 60_000,
      pollMs: 10,
      claim: async (free) => {
        asked.push(free);
        return waiting.splice(0, free);
      },
      renew: async () => true,
      run: async (job) => {
        running += 1;
        most = Math.max(most, running);
        await sleep(20);
        running -= 1;
        return `done ${job.id}`;
      },
      settled: (job, outcome) => settled.push(outcome),
      nothingLeft: async () => waiting.length === 0,
    });
    await loop.idle();
    await loop.stop();
    expect(settled.sort()).toEqual(Array.from({ length: 7 }, (_, i) => `done j${i}`));
    expect(most).toBe(3);
    expect(Math.max(...asked)).toBe(3);
    expect(asked.every((n) => n >= 1)).toBe(true);
  });

  it("aborts a job whose lease is lost, and keeps claiming after a claim fails", async () => {
    let claims = 0;
    let aborted = false;
    const outcomes: string[] = [];
    const loop = startLeasedLoop<Job, string>({
      name: "test loop",
      concurrency: 1,
      leaseMs: 150, // renewed every 50 ms
      pollMs: 10,
      claim: async () => {
        claims += 1;
        if (claims === 1) throw new Error("the database is away");
        return claims === 2 ? [{ id: "lost" }] : [];
      },
      renew: async () => false,
      run: (_job, signal) =>
        new Promise<string>((resolve) => {
          signal.addEventListener("abort", () => {
            aborted = true;
            resolve("lost");
          });
        }),
      settled: (_job, outcome) => outcomes.push(outcome),
      nothingLeft: async () => claims >= 2,
    });
    await loop.idle();
    await loop.stop();
    expect(aborted).toBe(true);
    expect(outcomes).toEqual(["lost"]);
    expect(claims).toBeGreaterThanOrEqual(2);
  });

  it("stop lets the job in flight finish within the grace period, and claims nothing more", async () => {
    let finished = false;
    let claims = 0;
    const loop = startLeasedLoop<Job, string>({
      name: "test loop",
      concurrency: 1,
      leaseMs: 60_000,
      pollMs: 10,
      claim: async () => (++claims === 1 ? [{ id: "slow" }] : []),
      renew: async () => true,
      run: async () => {
        await sleep(100);
        finished = true;
        return "done";
      },
      nothingLeft: async () => false,
    });
    await sleep(20);
    expect(loop.inFlight()).toBe(1);
    await loop.stop(5_000);
    expect(finished).toBe(true);
    const after = claims;
    await sleep(50);
    expect(claims).toBe(after);
  });
});
