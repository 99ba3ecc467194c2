import type { FrameRef, FrameSplice } from "#src/schema/bytes.js";
import { imageExt, type FrameExt } from "./frame-ref.js";

// A JSON string value under an image key: `screenshot_png_b64` (CLI merge) or `data` (MCP image block).
const IMAGE_VALUE = /"(screenshot_png_b64|data)"(\s*:\s*)"([A-Za-z0-9+/]{64,}={0,2})"/g;

export interface ImageCut {
  /** UTF-16 offset of the base64 in the original text. */
  at: number;
  base64: string;
  bytes: Buffer;
  ext: FrameExt;
}

/**
 * Finds base64 images in a text field that can be cut out and put back byte-exactly: the base64
 * must be canonical (decode → encode gives the same characters) and decode to a PNG or JPEG.
 */
export function findImages(text: string): ImageCut[] {
  const cuts: ImageCut[] = [];
  for (const m of text.matchAll(IMAGE_VALUE)) {
    const base64 = m[3]!;
    const bytes = Buffer.from(base64, "base64");
    if (bytes.toString("base64") !== base64) continue;
    const ext = imageExt(bytes);
    if (!ext) continue;
    const at = m.index + 1 + m[1]!.length + 1 + m[2]!.length + 1;
    cuts.push({ at, base64, bytes, ext });
  }
  return cuts;
}

/** Cuts the images out of `text`, storing each through `putFrame`; returns the text left and the splices. */
export function extractImages(options: { text: string; field: string; putFrame: (bytes: Buffer, ext: FrameExt) => FrameRef }): {
  text: string;
  splices: FrameSplice[];
} {
  const cuts = findImages(options.text);
  if (cuts.length === 0) return { text: options.text, splices: [] };
  let out = "";
  let from = 0;
  const splices: FrameSplice[] = [];
  for (const cut of cuts) {
    out += options.text.slice(from, cut.at);
    from = cut.at + cut.base64.length;
    splices.push({ field: options.field, at: cut.at, ref: options.putFrame(cut.bytes, cut.ext) });
  }
  out += options.text.slice(from);
  return { text: out, splices };
}

/**
 * Puts the frames back into a stored text. Splices apply in order; each `at` is an offset into the
 * text with the splices before it already restored (so: an offset into the original text).
 */
export function restoreImages(options: {
  text: string;
  splices: readonly FrameSplice[];
  frameBase64: (ref: FrameRef) => string;
  onBadOffset: (splice: FrameSplice, index: number) => never;
}): string {
  let text = options.text;
  let previousEnd = 0;
  options.splices.forEach((splice, index) => {
    if (splice.at > text.length || splice.at < previousEnd) options.onBadOffset(splice, index);
    const b64 = options.frameBase64(splice.ref);
    text = text.slice(0, splice.at) + b64 + text.slice(splice.at);
    previousEnd = splice.at + b64.length;
  });
  return text;
}
