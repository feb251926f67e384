import { describe, expect, it } from "vitest";
import { getDb, getPool } from "@/lib/db/client";
import { sql, sqlTransaction } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

/** lib/db/sql.ts: the hand-written SQL of the hot paths, on Prisma's own pool. */
describe("hand-written SQL beside Prisma", () => {
  async function user(email: string) {
    return getDb().user.create({ data: { email, name: "U", role: "GRADER", passwordHash: "x" } });
  }

  it("commits what the transaction wrote, and rolls all of it back when it throws", async () => {
    const a = await user("a@x.org");
    await sqlTransaction(async (tx) => {
      await tx.rows(Prisma.sql`UPDATE "User" SET name = 'Committed' WHERE id = ${a.id}::uuid`);
    });
    await expect(
      sqlTransaction(async (tx) => {
        await tx.rows(Prisma.sql`UPDATE "User" SET name = 'Half-written' WHERE id = ${a.id}::uuid`);
        throw new Error("validation failed after the first write");
      }),
    ).rejects.toThrow("validation failed");
    // A failing statement rolls back the statements before it, too.
    await expect(
      sqlTransaction(async (tx) => {
        await tx.rows(Prisma.sql`UPDATE "User" SET name = 'Half-written' WHERE id = ${a.id}::uuid`);
        await tx.rows(Prisma.sql`INSERT INTO "User" (id, email, name, role, "passwordHash", "updatedAt") VALUES (gen_random_uuid(), 'a@x.org', 'dup', 'GRADER', 'x', now())`);
      }),
    ).rejects.toThrow(/duplicate key/);
    expect((await getDb().user.findUniqueOrThrow({ where: { id: a.id } })).name).toBe("Committed");
    // Every connection went back to the pool, none is left inside a transaction.
    expect(getPool().totalCount - getPool().idleCount).toBe(0);
    const [open] = await sql.rows<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`);
    expect(open.n).toBe(0);
  });

  it("reads timestamps as the same instants Prisma does", async () => {
    const a = await user("t@x.org");
    const viaPrisma = await getDb().user.findUniqueOrThrow({ where: { id: a.id }, select: { createdAt: true } });
    const [viaSql] = await sql.rows<{ createdAt: Date; asText: Date }>(
      Prisma.sql`SELECT "createdAt", "createdAt"::timestamp(3) AS "asText" FROM "User" WHERE id = ${a.id}::uuid`,
    );
    expect(viaSql.createdAt.toISOString()).toBe(viaPrisma.createdAt.toISOString());
    // A column without a time zone holds UTC (as Prisma writes it), whatever the server's zone.
    const [utc] = await sql.rows<{ at: Date }>(Prisma.sql`SELECT ('2026-03-29 01:30:00.250'::timestamp(3)) AS at`);
    expect(utc.at.toISOString()).toBe("2026-03-29T01:30:00.250Z");
  });

  it("prepares a statement once per connection and reuses it with other parameters", async () => {
    const q = (n: number) => Prisma.sql`SELECT ${n}::int + 1 AS v`;
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map(async (n) => (await sql.rows<{ v: number }>(q(n)))[0].v));
    expect(results).toEqual([2, 3, 4, 5, 6, 7]);
    // One transaction is one connection: the statement is there once, however often it ran.
    const prepared = await sqlTransaction(async (tx) => {
      for (const n of [10, 20, 30]) expect((await tx.rows<{ v: number }>(q(n)))[0].v).toBe(n + 1);
      return tx.rows<{ name: string }>(Prisma.sql`SELECT name FROM pg_prepared_statements WHERE statement = ${q(0).text}`);
    });
    expect(prepared).toHaveLength(1);
    expect(prepared[0].name).toMatch(/^cg_[0-9a-f]{24}$/);
  });

  it("reads one snapshot in a snapshot transaction, whatever commits meanwhile, and writes nothing", async () => {
    const a = await user("s@x.org");
    const names = await sqlTransaction(
      async (tx) => {
        const name = async () => (await tx.rows<{ name: string }>(Prisma.sql`SELECT name FROM "User" WHERE id = ${a.id}::uuid`))[0].name;
        const before = await name();
        // Committed on another connection between the transaction's two reads.
        await getDb().user.update({ where: { id: a.id }, data: { name: "Renamed meanwhile" } });
        return [before, await name()];
      },
      { snapshot: true },
    );
    expect(names).toEqual(["U", "U"]);
    expect((await getDb().user.findUniqueOrThrow({ where: { id: a.id } })).name).toBe("Renamed meanwhile");
    await expect(
      sqlTransaction(async (tx) => tx.rows(Prisma.sql`UPDATE "User" SET name = 'Written' WHERE id = ${a.id}::uuid`), { snapshot: true }),
    ).rejects.toThrow(/read-only transaction/);
    // Without the option each statement sees what has committed before it (READ COMMITTED).
    const seen = await sqlTransaction(async (tx) => {
      await getDb().user.update({ where: { id: a.id }, data: { name: "Again" } });
      return (await tx.rows<{ name: string }>(Prisma.sql`SELECT name FROM "User" WHERE id = ${a.id}::uuid`))[0].name;
    });
    expect(seen).toBe("Again");
  });

  it("streams a statement's rows to a function, and a throw there fails the transaction once the statement has ended", async () => {
    const seen: number[] = [];
    const count = await sqlTransaction((tx) => tx.each<{ v: number }>(Prisma.sql`SELECT generate_series(1, ${5000}::int) AS v`, (r) => seen.push(r.v)));
    expect(count).toBe(5000);
    expect(seen).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    const a = await user("e@x.org");
    await expect(
      sqlTransaction(async (tx) => {
        await tx.rows(Prisma.sql`UPDATE "User" SET name = 'Half-written' WHERE id = ${a.id}::uuid`);
        await tx.each<{ v: number }>(Prisma.sql`SELECT generate_series(1, ${100}::int) AS v`, (r) => {
          if (r.v === 50) throw new Error("row 50 is bad");
        });
      }),
    ).rejects.toThrow("row 50 is bad");
    expect((await getDb().user.findUniqueOrThrow({ where: { id: a.id } })).name).toBe("U");
    // A statement that fails in the database rejects too, and the connection goes back clean.
    await expect(sqlTransaction((tx) => tx.each(Prisma.sql`SELECT 1 / (generate_series(1, 3) - 2) AS v`, () => {}))).rejects.toThrow(/division by zero/);
    expect(getPool().totalCount - getPool().idleCount).toBe(0);
  });
});
