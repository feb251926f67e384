import { afterEach, describe, expect, it } from "vitest";
import { coalesce, decodeUtf8, formatBytes, formatFromContentType, limitBytes, maxImportBytes } from "@/lib/import/source";
import { ApiError } from "@/lib/errors/api-error";
import { chunks, collect } from "./helpers";

async function drain<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

afterEach(() => {
  delete process.env.IMPORT_MAX_BYTES;
});

describe("the request body", () => {
  it("takes CSV and JSON content types, refuses others with 415", () => {
    expect(formatFromContentType("text/csv")).toBe("csv");
    expect(formatFromContentType("text/csv; charset=UTF-8")).toBe("csv");
    expect(formatFromContentType("application/vnd.ms-excel")).toBe("csv");
    expect(formatFromContentType("application/json")).toBe("json");
    for (const bad of [null, "multipart/form-data; boundary=x", "application/xml", "text/csv; charset=iso-8859-1"]) {
      expect(() => formatFromContentType(bad)).toThrow(ApiError);
      try {
        formatFromContentType(bad);
      } catch (e) {
        expect((e as ApiError).status).toBe(415);
      }
    }
  });

  it("reads the size limit from IMPORT_MAX_BYTES, 50 MB by default", () => {
    expect(maxImportBytes()).toBe(50 * 1024 * 1024);
    process.env.IMPORT_MAX_BYTES = "1000";
    expect(maxImportBytes()).toBe(1000);
    process.env.IMPORT_MAX_BYTES = "nonsense";
    expect(maxImportBytes()).toBe(50 * 1024 * 1024);
    expect(formatBytes(50 * 1024 * 1024)).toBe("50 MB");
  });

  it("counts bytes while streaming and stops with 413 past the limit", async () => {
    expect((await drain(limitBytes(chunks("x".repeat(100), 10), 100))).length).toBe(10);
    await expect(drain(limitBytes(chunks("x".repeat(101), 10), 100))).rejects.toMatchObject({ status: 413 });
  });

  it("refuses a body shorter than its Content-Length", async () => {
    await expect(drain(limitBytes(chunks("x".repeat(50), 10), 100, 80))).rejects.toMatchObject({ status: 413, message: expect.stringMatching(/cut short/) });
  });

  it("decodes UTF-8 split anywhere, drops the BOM, refuses other encodings with 400", async () => {
    const text = "\uFEFFÄrztin „5 mg“ 😀";
    for (let size = 1; size < 8; size++) expect((await drain(decodeUtf8(chunks(text, size)))).join("")).toBe("Ärztin „5 mg“ 😀");
    const latin1 = Buffer.from("item_id\nQ1,caf\xe9\n", "latin1");
    await expect(drain(decodeUtf8(chunks(latin1, 4)))).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/not valid UTF-8/) });
  });

  it("re-cuts chunks into pieces between the bounds, losing nothing", async () => {
    const text = Buffer.from("abcdefghij".repeat(100));
    const pieces = await drain(coalesce(chunks(text, 7), 30, 45));
    expect(Buffer.concat(pieces).equals(text)).toBe(true);
    expect(pieces.slice(0, -1).every((p) => p.byteLength >= 30 && p.byteLength <= 45 + 7)).toBe(true);
    const big = await drain(coalesce(chunks(text, 1000), 30, 45));
    expect(big.every((p) => p.byteLength <= 45)).toBe(true);
    expect(Buffer.concat(big).equals(text)).toBe(true);
    expect(await collect(chunks("", 5) as never)).toEqual([]);
  });
});
