import sharp from "sharp";

/** An SVG figure as PNG at print resolution: 3x its CSS pixels (a 640 px figure is 1,920 px, 300 dpi over 6.4 in). */
export async function svgToPng(svg: string, scale = 3): Promise<Buffer> {
  return sharp(Buffer.from(svg, "utf8"), { density: 72 * scale }).png().toBuffer();
}
