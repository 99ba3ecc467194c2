import pixelmatch from "pixelmatch";
import { SIGNATURE, signature, type FrameCache } from "./decode.js";

/** The three answers of the perceptual comparison. */
export type ScreenChangeKind = "identical" | "similar" | "changed";

/** How two screenshots compare: identical, similar or changed, and by how much. */
export interface ScreenChange {
  kind: ScreenChangeKind;
  /** Fraction of signature cells that differ (0 for identical bytes, 1 when the sizes differ). */
  changedFraction: number;
}

/** Thresholds for `screenChange`. */
export interface ScreenChangeOptions {
  /** Fraction of the 32×18 cells that may differ for frames to count as similar (default 0.02). */
  similarBelow?: number;
  /** pixelmatch's per-cell colour threshold, 0–1 (default 0.03: about 8 grey levels of a cell's mean). */
  cellThreshold?: number;
  /** Signatures to reuse across calls (`frameCache()`), for a caller comparing a run of screenshots. */
  frames?: FrameCache;
}

/** The perceptual comparison's thresholds (docs/screen-change.md). */
export const SCREEN_CHANGE_DEFAULTS = { similarBelow: 0.02, cellThreshold: 0.03 } as const;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/**
 * Whether the screen visibly changed between two screenshots (PNG or JPEG bytes): identical bytes
 * need no decode; otherwise a 32×18 grayscale signature, where a clock tick or a blinking cursor
 * moves a cell or two (similar) and a dialog or a moved window moves many (changed).
 */
export async function screenChange(previous: Uint8Array, next: Uint8Array, options: ScreenChangeOptions = {}): Promise<ScreenChange> {
  if (sameBytes(previous, next)) return { kind: "identical", changedFraction: 0 };
  const [a, b] = await Promise.all([signature(previous, "previous", options.frames), signature(next, "next", options.frames)]);
  if (a.width !== b.width || a.height !== b.height) return { kind: "changed", changedFraction: 1 };
  const cells = SIGNATURE.width * SIGNATURE.height;
  const differing = pixelmatch(a.rgba, b.rgba, undefined, SIGNATURE.width, SIGNATURE.height, {
    threshold: options.cellThreshold ?? SCREEN_CHANGE_DEFAULTS.cellThreshold,
    includeAA: true,
  });
  const changedFraction = differing / cells;
  const similarBelow = options.similarBelow ?? SCREEN_CHANGE_DEFAULTS.similarBelow;
  return { kind: changedFraction < similarBelow ? "similar" : "changed", changedFraction };
}
