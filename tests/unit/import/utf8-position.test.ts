import { describe, expect, it } from "vitest";
import { decodeUtf8, firstInvalidUtf8 } from "@/lib/import/source";
import { chunks } from "./helpers";

async function errorOf(bytes: Uint8Array, size: number): Promise<string> {
  try {
    for await (const piece of decodeUtf8(chunks(Buffer.from(bytes), size))) void piece;
  } catch (err) {
    return (err as Error).message;
  }
  return "no error";
}

const enc = (s: string) => new TextEncoder().encode(s);
const join = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

describe("where a file stops being UTF-8", () => {
  it("finds the first bad byte as the decoder would", () => {
    expect(firstInvalidUtf8(enc("héllo ✓ 😀"))).toBe(-1);
    expect(firstInvalidUtf8(new Uint8Array([0x61, 0xe9, 0x62]))).toBe(1); // Latin-1 é
    expect(firstInvalidUtf8(new Uint8Array([0x61, 0xc0, 0xaf]))).toBe(1); // overlong
    expect(firstInvalidUtf8(new Uint8Array([0xed, 0xa0, 0x80]))).toBe(0); // a surrogate
    expect(firstInvalidUtf8(new Uint8Array([0x61, 0xe2, 0x9c]))).toBe(-1); // cut short: the next piece may finish it
  });

  it("names the line and the byte offset, whatever the chunking, after a BOM and multi-byte characters", async () => {
    // Line 3, after "ü" (2 bytes) and "✓" (3 bytes): the Latin-1 "é" of "café".
    const head = enc("\uFEFFitem_id,question\nQ1,Grüße ✓\nQ2,caf");
    const bytes = join(head, new Uint8Array([0xe9]), enc("\nQ3,ok\n"));
    const offset = head.length;
    for (const size of [1, 2, 3, 5, 7, 64]) {
      expect(await errorOf(bytes, size), `chunks of ${size}`).toContain(`line 3, byte offset ${offset}: 0xE9`);
    }
    // Without a BOM, and a file that ends inside a character.
    expect(await errorOf(join(enc("a\nb\n"), new Uint8Array([0xe2, 0x9c])), 1)).toContain("line 3, byte offset 4: 0xE2, a character cut off by the end of the file");
    expect(await errorOf(join(enc("x\n"), new Uint8Array([0x93])), 2)).toMatch(/not valid UTF-8 text \(line 2, byte offset 2: 0x93\)/);
  });
});
