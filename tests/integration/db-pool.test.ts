import { afterEach, describe, expect, it, vi } from "vitest";
import { getPool, POOL_IDLE_MS } from "@/lib/db/client";
import { sql } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

const backend = async () => (await sql.rows<{ pid: number }>(Prisma.sql`SELECT pg_backend_pid() AS pid`))[0].pid;

/**
 * lib/db/client.ts: the pool keeps its connections through a grader's pause.
 * A connection that closes after pg's default 10 s makes the next request of a
 * quiet study start a backend whose caches are cold and plan every statement
 * again; under the grading bench that cost was most of PostgreSQL's CPU.
 */
describe("the app's connection pool", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("serves the next request on the same backend after minutes of idleness, and closes it after POOL_IDLE_MS", async () => {
    // Only the pool's timers are faked; the socket's I/O runs for real.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const first = await backend();
    const open = getPool().totalCount;
    expect(getPool().idleCount).toBe(open);

    vi.advanceTimersByTime(5 * 60_000);
    expect(getPool().totalCount).toBe(open);
    expect(await backend()).toBe(first);

    vi.advanceTimersByTime(POOL_IDLE_MS + 1_000);
    // Closing is asynchronous (the client ends its socket).
    await vi.waitFor(() => expect(getPool().totalCount).toBe(0), { timeout: 5_000, interval: 20 });
    vi.useRealTimers();
    expect(await backend()).not.toBe(first);
  });
});
