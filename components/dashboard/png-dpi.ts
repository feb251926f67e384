/**
 * A PNG that says its resolution: a journal checks a figure's dpi from the
 * file's pHYs chunk (pixels per metre), which a canvas never writes. Pure
 * byte work, so it is unit-tested without a browser.
 */

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

/** Pixels per metre for a resolution in dots per inch (300 dpi: 11,811). */
export const pixelsPerMetre = (dpi: number) => Math.round(dpi / 0.0254);

/** The PNG with a pHYs chunk for `dpi` right after its header (any pHYs it had is dropped). */
export function withDpi(png: Uint8Array, dpi: number): Uint8Array {
  if (SIGNATURE.some((b, i) => png[i] !== b)) throw new Error("not a PNG");
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const chunks: Uint8Array[] = [png.subarray(0, 8)];
  let at = 8;
  while (at < png.length) {
    const len = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const end = at + 12 + len;
    if (type !== "pHYs") chunks.push(png.subarray(at, end));
    if (type === "IHDR") chunks.push(physChunk(dpi));
    at = end;
  }
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

function physChunk(dpi: number): Uint8Array {
  const chunk = new Uint8Array(4 + 4 + 9 + 4);
  const v = new DataView(chunk.buffer);
  v.setUint32(0, 9);
  chunk.set([0x70, 0x48, 0x59, 0x73], 4); // "pHYs"
  v.setUint32(8, pixelsPerMetre(dpi));
  v.setUint32(12, pixelsPerMetre(dpi));
  chunk[16] = 1; // unit: the metre
  v.setUint32(17, crc32(chunk.subarray(4, 17)));
  return chunk;
}

/** What a PNG says of itself: its pixel size and, when it has a pHYs chunk in metres, its dpi. */
export function pngInfo(png: Uint8Array): { width: number; height: number; dpi: number | null } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const info = { width: view.getUint32(16), height: view.getUint32(20), dpi: null as number | null };
  let at = 8;
  while (at < png.length) {
    const len = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    if (type === "pHYs" && png[at + 16] === 1) info.dpi = Math.round(view.getUint32(at + 8) * 0.0254);
    if (type === "IDAT") break;
    at += 12 + len;
  }
  return info;
}
