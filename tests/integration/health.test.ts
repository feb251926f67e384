import { afterEach, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { GET as live } from "@/app/api/health/live/route";
import { GET as ready } from "@/app/api/health/ready/route";
import { disconnectDb } from "@/lib/db/client";
import { isDraining, startDraining } from "@/lib/server/lifecycle";
import { call } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

const db = useIsolatedDatabase();
const state = globalThis as unknown as { clingradeDraining?: boolean };

afterEach(async () => {
  state.clingradeDraining = undefined;
  if (process.env.DATABASE_URL !== db.url()) {
    await disconnectDb();
    process.env.DATABASE_URL = db.url();
  }
});

describe("GET /api/health/live and /api/health/ready", () => {
  it("are both 200 when the database answers and the process is not draining", async () => {
    expect(await call(live as never, "/api/health/live")).toMatchObject({ status: 200, body: { status: "ok", draining: false } });
    expect(await call(ready as never, "/api/health/ready")).toMatchObject({ status: 200, body: { status: "ok", db: "ok" } });
    expect((await call(ready as never, "/api/health/ready")).headers.get("cache-control")).toBe("no-store");
  });

  it("ready is 503 while draining; live stays 200 so that the shutdown may finish", async () => {
    expect(isDraining()).toBe(false);
    startDraining();
    const r = await call(ready as never, "/api/health/ready");
    expect(r).toMatchObject({ status: 503, body: { status: "draining" } });
    expect(await call(live as never, "/api/health/live")).toMatchObject({ status: 200, body: { status: "ok", draining: true } });
  });

  it("ready is 503 with a reason (and no URL) when the database is unreachable, and 200 again when it is back", async () => {
    await disconnectDb();
    process.env.DATABASE_URL = "postgresql://postgres:not-this-password@127.0.0.1:1/nowhere";
    const r = await call(ready as never, "/api/health/ready");
    expect(r).toMatchObject({ status: 503, body: { status: "unavailable", db: "error" } });
    expect(String(r.body.reason)).toMatch(/^database unreachable/);
    expect(JSON.stringify(r.body)).not.toContain("not-this-password");
    expect(await call(live as never, "/api/health/live")).toMatchObject({ status: 200 });
    // The old endpoint keeps its meaning.
    expect(await call(health as never, "/api/health")).toMatchObject({ status: 503, body: { status: "unavailable" } });
    await disconnectDb();
    process.env.DATABASE_URL = db.url();
    expect(await call(ready as never, "/api/health/ready")).toMatchObject({ status: 200 });
  });
});
