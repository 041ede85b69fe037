// Reads pixels of a PNG screenshot by decoding it in a browser page (no image library needed).
import type { Page } from "playwright-core";

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export async function pixelsAt(decoder: Page, png: Buffer, points: { x: number; y: number }[]): Promise<Rgb[]> {
  return decoder.evaluate(
    async ({ data, pts }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const c = document.createElement("canvas");
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const ctx = c.getContext("2d")!;
      ctx.drawImage(img, 0, 0);
      return pts.map((p) => {
        const [r, g, b] = ctx.getImageData(Math.round(p.x), Math.round(p.y), 1, 1).data;
        return { r, g, b };
      });
    },
    { data: png.toString("base64"), pts: points },
  );
}

/** True when the colour is within `tol` of the hex colour on every channel. */
export function near(c: Rgb, hex: string, tol = 40): boolean {
  const n = parseInt(hex.replace("#", ""), 16);
  const want = { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
  return Math.abs(c.r - want.r) <= tol && Math.abs(c.g - want.g) <= tol && Math.abs(c.b - want.b) <= tol;
}
