import pixelmatch from "pixelmatch";
import sharp from "sharp";
import { decodeFrame, reducedBy, rgbaAt, type FrameCache } from "./decode.js";

/** Two screenshots compared pixel by pixel: the differing pixels and an image that shows them. */
export interface DiffImage {
  /** PNG: the previous frame faded, changed pixels in red. */
  png: Buffer;
  width: number;
  height: number;
  /** Changed pixels at the diff's own size (`width`×`height`). */
  changedPixels: number;
}

export interface DiffImageOptions {
  /** pixelmatch's per-pixel colour threshold, 0–1 (default 0.1). */
  threshold?: number;
  /**
   * Draw the diff at most this wide: both frames shrunk by the smallest whole factor that fits
   * (area means), so the result is over half this width. Default: the previous frame's width.
   */
  maxWidth?: number;
  /** Decoded frames to reuse across calls (`frameCache()`). */
  frames?: FrameCache;
}

/**
 * A PNG that highlights what changed between two frames, for reports. The next frame is scaled to
 * the previous one's size (or both to `maxWidth`). Encoded with fast zlib and no filter search: a
 * highlight is mostly flat colour, so the file is about as small and the encode several times faster.
 */
export async function diffImage(previous: Uint8Array, next: Uint8Array, options: DiffImageOptions = {}): Promise<DiffImage> {
  const [a, b] = await Promise.all([decodeFrame(previous, "previous", options.frames), decodeFrame(next, "next", options.frames)]);
  const k = options.maxWidth !== undefined ? Math.max(1, Math.ceil(a.width / Math.max(1, options.maxWidth))) : 1;
  const { width, height } = reducedBy(a, k);
  const out = Buffer.alloc(width * height * 4);
  const changedPixels = pixelmatch(rgbaAt(a, k, width, height), rgbaAt(b, k, width, height), out, width, height, {
    threshold: options.threshold ?? 0.1,
    includeAA: true,
    alpha: 0.2,
    diffColor: [255, 0, 0],
  });
  const png = await sharp(out, { raw: { width, height, channels: 4 } })
    .png({ compressionLevel: 1, adaptiveFiltering: false })
    .toBuffer();
  return { png, width, height, changedPixels };
}
