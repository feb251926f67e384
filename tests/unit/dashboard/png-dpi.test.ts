import { crc32, deflateSync, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { pixelsPerMetre, pngInfo, withDpi } from "@/components/dashboard/png-dpi";

/** A real w x h grey PNG, as a canvas would write it (no pHYs), optionally with a pHYs of its own. */
function png(w: number, h: number, phys?: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc((w + 1) * h, 0x80);
  for (let y = 0; y < h; y++) rows[y * (w + 1)] = 0;
  const physData = Buffer.alloc(9);
  if (phys) {
    physData.writeUInt32BE(phys, 0);
    physData.writeUInt32BE(phys, 4);
    physData[8] = 1;
  }
  return new Uint8Array(
    Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), ...(phys ? [chunk("pHYs", physData)] : []), chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]),
  );
}

/** Every chunk's type, and whether its CRC is right. */
function chunks(bytes: Uint8Array) {
  const b = Buffer.from(bytes);
  const out: { type: string; crcOk: boolean }[] = [];
  for (let at = 8; at < b.length; ) {
    const len = b.readUInt32BE(at);
    const type = b.toString("ascii", at + 4, at + 8);
    out.push({ type, crcOk: b.readUInt32BE(at + 8 + len) === crc32(b.subarray(at + 4, at + 8 + len)) });
    at += 12 + len;
  }
  return out;
}

describe("a PNG that says its dpi (pHYs)", () => {
  it("300 dpi is 11,811 pixels per metre, written right after IHDR with a valid CRC; the pixels are untouched", () => {
    expect(pixelsPerMetre(300)).toBe(11811);
    const src = png(7, 5);
    expect(pngInfo(src)).toEqual({ width: 7, height: 5, dpi: null });
    const out = withDpi(src, 300);
    expect(pngInfo(out)).toEqual({ width: 7, height: 5, dpi: 300 });
    expect(chunks(out)).toEqual([
      { type: "IHDR", crcOk: true },
      { type: "pHYs", crcOk: true },
      { type: "IDAT", crcOk: true },
      { type: "IEND", crcOk: true },
    ]);
    const idat = (b: Uint8Array) => {
      const buf = Buffer.from(b);
      for (let at = 8; ; ) {
        const len = buf.readUInt32BE(at);
        if (buf.toString("ascii", at + 4, at + 8) === "IDAT") return inflateSync(buf.subarray(at + 8, at + 8 + len));
        at += 12 + len;
      }
    };
    expect(idat(out)).toEqual(idat(src));
  });

  it("replaces a pHYs already there (one chunk, the new resolution); 600 dpi reads back as 600", () => {
    const out = withDpi(png(3, 3, 2835), 600);
    expect(chunks(out).filter((c) => c.type === "pHYs")).toHaveLength(1);
    expect(pngInfo(out).dpi).toBe(600);
  });

  it("refuses what is not a PNG", () => {
    expect(() => withDpi(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]), 300)).toThrow(/not a PNG/);
  });
});
