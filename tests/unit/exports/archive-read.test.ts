import { describe, expect, it } from "vitest";
import { archiveEvents, MAX_DEPTH, type ArchiveEvent } from "@/lib/exports/archive-read";
import { ApiError } from "@/lib/errors/api-error";

async function* pieces(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function events(text: string, size = text.length || 1, max?: number): Promise<ArchiveEvent[]> {
  const out: ArchiveEvent[] = [];
  for await (const batch of archiveEvents(pieces(text, size), max)) out.push(...batch);
  return out;
}

/** The document rebuilt from the events, as JSON.parse would give it. */
function assemble(list: ArchiveEvent[]): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  for (const e of list) {
    if (e.type === "value") doc[e.key] = e.value;
    else if (e.type === "open") doc[e.key] = [];
    else if (e.type === "elements") {
      const arr = doc[e.key] as unknown[];
      expect(e.from).toBe(arr.length);
      arr.push(...e.elements);
    } else if (e.type === "refused" && e.index >= 0) {
      const arr = doc[e.key] as unknown[];
      expect(e.index).toBe(arr.length);
      arr.push("<refused>");
    }
  }
  return doc;
}

async function status(text: string): Promise<number> {
  try {
    await events(text, 3);
  } catch (err) {
    if (err instanceof ApiError) return err.status;
    throw err;
  }
  return 0;
}

const DOC = {
  format: "clingrade-study-archive",
  version: 1,
  identities: false,
  neg: -1.5e-3,
  none: null,
  yes: true,
  study: { name: 'A "quoted" {study} [with] brackets, commas: and \\ backslashes', nested: { deep: [1, [2, [3]]] } },
  "key with \"quote\" and é": "value\nwith\tescapes \u0001 and 😷",
  empty: [],
  items: [
    { id: "Q1", question: "}]),:\"\\" },
    "a string element",
    42,
    -0.5,
    true,
    null,
    [],
    {},
    { id: "Q2", text: "fièvre — مرحبا 😷".repeat(20) },
  ],
  sets: [[1, 2], { a: [{ b: "]" }] }],
};

describe("archiveEvents: the archive's top-level object, member by member, element by element", () => {
  it("gives the document JSON.parse gives, whatever the pieces it arrives in (whitespace, escapes and surrogate pairs cut anywhere)", async () => {
    for (const text of [JSON.stringify(DOC), JSON.stringify(DOC, null, 2), JSON.stringify(DOC, null, "\t").replaceAll("\n", "\r\n")]) {
      for (const size of [1, 2, 3, 5, 7, 64, text.length]) {
        expect(assemble(await events(text, size)), `pieces of ${size}`).toEqual(JSON.parse(text));
      }
    }
  });

  it("names each array's opening and closing with its element count, and an empty object has no members", async () => {
    const list = await events('{"a": [], "b": [1, 2, 3], "c": 1}', 2);
    expect(list.filter((e) => e.type === "open" || e.type === "close")).toEqual([
      { type: "open", key: "a" },
      { type: "close", key: "a", count: 0 },
      { type: "open", key: "b" },
      { type: "close", key: "b", count: 3 },
    ]);
    expect(await events(" {} ")).toEqual([]);
  });

  it("skips an element longer than the limit (or nested too deeply) with a refusal naming it, and reads on", async () => {
    const text = JSON.stringify({ items: ["short", "x".repeat(100), { ok: 1 }, 7], study: "y".repeat(100), after: [1] });
    for (const size of [1, 4, 1000]) {
      const list = await events(text, size, 50);
      expect(list.filter((e) => e.type === "refused")).toEqual([
        { type: "refused", key: "items", index: 1, message: "is longer than 50 characters" },
        { type: "refused", key: "study", index: -1, message: "is longer than 50 characters" },
      ]);
      const doc = assemble(list);
      expect(doc.items).toEqual(["short", "<refused>", { ok: 1 }, 7]);
      expect(doc.after).toEqual([1]);
    }
    const deep = `{"items": [${"[".repeat(MAX_DEPTH + 1)}${"]".repeat(MAX_DEPTH + 1)}, 1]}`;
    const list = await events(deep, 5);
    expect(list.filter((e) => e.type === "refused")).toEqual([{ type: "refused", key: "items", index: 0, message: `is nested more than ${MAX_DEPTH} levels deep` }]);
    expect(assemble(list).items).toEqual(["<refused>", 1]);
  });

  it("refuses what is not one JSON object with 400, saying where", async () => {
    for (const bad of ["", "   ", "[1, 2]", '{"a": 1,}', '{"a" 1}', '{"a": [1,]}', '{"a": [1 2]}', '{"a": 1} x', '{"a": [1, 2]', '{"a": "b', '{"a": tru}', '{"a": }', "{a: 1}", '{"a": [,1]}']) {
      expect(await status(bad), bad).toBe(400);
    }
  });
});
