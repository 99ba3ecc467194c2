import pixelmatch from "pixelmatch";
import sharp from "sharp";
import { rgbaOf } from "./decode.js";

export interface DiffImage {
  /** PNG: the previous frame faded, changed pixels in red. */
  png: Buffer;
  width: number;
  height: number;
  changedPixels: number;
}

/** A PNG that highlights what changed between two frames, for reports. The next frame is scaled to the previous one's size. */
export async function diffImage(previous: Uint8Array, next: Uint8Array, options: { threshold?: number } = {}): Promise<DiffImage> {
  const a = await rgbaOf(previous, "previous");
  const b = await rgbaOf(next, "next", { width: a.width, height: a.height });
  const out = Buffer.alloc(a.width * a.height * 4);
  const changedPixels = pixelmatch(a.data, b.data, out, a.width, a.height, {
    threshold: options.threshold ?? 0.1,
    includeAA: true,
    alpha: 0.2,
    diffColor: [255, 0, 0],
  });
  const png = await sharp(out, { raw: { width: a.width, height: a.height, channels: 4 } }).png().toBuffer();
  return { png, width: a.width, height: a.height, changedPixels };
}
