import { createHash } from "node:crypto";
import type { FrameRef } from "#src/schema/bytes.js";

export type FrameExt = "png" | "jpg";

const REF_PATTERN = /^frames\/([0-9a-f]{64})\.(png|jpg)$/;

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export function frameRefFor(bytes: Uint8Array, ext: FrameExt): FrameRef {
  return `frames/${sha256Hex(bytes)}.${ext}`;
}

/** The sha256 a ref names, or undefined when the ref is not exactly `frames/<sha256>.<png|jpg>`. */
export function parseFrameRef(ref: string): { sha256: string; ext: FrameExt } | undefined {
  const m = REF_PATTERN.exec(ref);
  return m ? { sha256: m[1]!, ext: m[2] as FrameExt } : undefined;
}

/** The image kind of some bytes, judged by their magic number. */
export function imageExt(bytes: Uint8Array): FrameExt | undefined {
  if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return "png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpg";
  return undefined;
}
