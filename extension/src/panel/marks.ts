// Set-of-mark drawing: numbered boxes over a screenshot, on a canvas.
import { DEFAULT_COLOR } from "@sightline/shared/overlay";

export interface Mark {
  id: number;
  rect: { x: number; y: number; width: number; height: number };
}

export function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error("The screenshot could not be decoded."));
    img.src = src;
  });
}

/** Draws the image and its marks; `viewportWidth` (CSS px) maps element rects onto image pixels. */
export function drawMarks(canvas: HTMLCanvasElement, img: HTMLImageElement, marks: Mark[], viewportWidth: number): number {
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("No 2D canvas.");
  ctx.drawImage(img, 0, 0);
  const k = viewportWidth > 0 ? img.naturalWidth / viewportWidth : 1;
  let drawn = 0;
  ctx.lineWidth = Math.max(2, Math.round(2 * k));
  ctx.font = `600 ${Math.round(12 * k)}px system-ui, sans-serif`;
  ctx.textBaseline = "top";
  for (const m of marks) {
    const x = m.rect.x * k;
    const y = m.rect.y * k;
    const w = m.rect.width * k;
    const hgt = m.rect.height * k;
    if (x + w <= 0 || y + hgt <= 0 || x >= canvas.width || y >= canvas.height || w <= 0 || hgt <= 0) continue;
    ctx.strokeStyle = DEFAULT_COLOR;
    ctx.strokeRect(x, y, w, hgt);
    const label = String(m.id);
    const tw = ctx.measureText(label).width + 6 * k;
    const th = 15 * k;
    const ly = y - th >= 0 ? y - th : y;
    ctx.fillStyle = DEFAULT_COLOR;
    ctx.fillRect(x, ly, tw, th);
    ctx.fillStyle = "#fff";
    ctx.fillText(label, x + 3 * k, ly + 1.5 * k);
    drawn++;
  }
  return drawn;
}
