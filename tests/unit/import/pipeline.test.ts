import { describe, expect, it } from "vitest";
import { z } from "zod";
import { orderedIds, Pieces } from "@/lib/import/pipeline";

describe("orderedIds", () => {
  it("makes uuids the API's own checks accept, increasing in the order they are made", () => {
    const id = orderedIds();
    const ids = [0, 1, 15, 16, 4095, 4096, 1_000_000, 2 ** 40].map(id);
    for (const x of ids) expect(z.uuid().safeParse(x).success, x).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("gives each import its own prefix", () => {
    expect(orderedIds()(0)).not.toBe(orderedIds()(0));
  });
});

describe("Pieces", () => {
  it("hands back every line once, in order, as UTF-8 bytes, and counts what waits", () => {
    const p = new Pieces();
    const lines = Array.from({ length: 5000 }, (_, i) => `${i},${"é€😀x".repeat(i % 50)}\n`);
    for (const l of lines) p.add(l);
    expect(p.size).toBe(lines.join("").length);
    const pieces = p.take();
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(Buffer.isBuffer(piece)).toBe(true);
    expect(Buffer.concat(pieces).toString("utf8")).toBe(lines.join(""));
    expect(p.size).toBe(0);
    expect(p.take()).toEqual([]);
  });
});
