import { describe, expect, it } from "vitest";
import { jsonArrayElements } from "@/lib/import/json";
import { ApiError } from "@/lib/errors/api-error";
import { decodeUtf8 } from "@/lib/import/source";
import { chunks, collect } from "./helpers";

const read = (text: string, size = 5, max?: number) => collect(jsonArrayElements(decodeUtf8(chunks(text, size)), max));

describe("streaming JSON array", () => {
  it("yields each element, whatever the chunk size", async () => {
    const value = [
      { item_id: "Q1", response: 'He said "stop" \\ then {left} [x], ok', repetition: 1 },
      { item_id: 2, nested: { a: [1, { b: "]" }] }, response: "日本語 😀" },
      "a string",
      12.5e3,
      null,
      true,
      [1, 2],
    ];
    const text = JSON.stringify(value, null, 2);
    for (const size of [1, 2, 3, 7, 64, 1 << 20]) expect(await read(text, size)).toEqual(value);
  });

  it("reads an empty array and surrounding whitespace", async () => {
    expect(await read(" \n[ ]\n ")).toEqual([]);
  });

  it("answers 400 to malformed JSON, saying where", async () => {
    const cases: [string, RegExp][] = [
      ["", /the body is empty/],
      ['{"item_id": 1}', /expected an array of row objects/],
      ['[{"item_id": 1}', /not closed with \]/],
      ['[{"item_id": 1},]', /trailing comma/],
      ['[{"item_id": 1} {"item_id": 2}]', /expected , or \] after element 1/],
      ['[{"item_id": 1}] extra', /unexpected text after the closing \]/],
      ['[{"item_id": }]', /element 1 of the array cannot be parsed/],
      ["[1,,2]", /an empty element after element 1/],
      ['[{"a": "unterminated}]', /not closed/],
    ];
    for (const [text, message] of cases) {
      const e = await read(text).catch((err: unknown) => err);
      expect(e, text).toBeInstanceOf(ApiError);
      expect((e as ApiError).status, text).toBe(400);
      expect((e as ApiError).message, text).toMatch(message);
    }
  });

  it("refuses an element larger than the limit", async () => {
    const e = await read(`[{"response": "${"x".repeat(2000)}"}]`, 100, 500).catch((err: unknown) => err);
    expect(e).toMatchObject({ status: 422, message: expect.stringMatching(/element 1 of the array is longer than 500 characters/) });
  });
});
