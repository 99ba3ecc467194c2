import { createLru } from "#src/util/lru.js";
import { loadFrame } from "./frame-store.js";

/** Frames of one cassette read on demand (hash-checked) and kept within a budget, as base64 for splicing. */
export interface FrameCache {
  /** The frame's bytes as base64 (what a recorded answer held before the frame was cut out). */
  base64(ref: string): string;
}

/** The default budget: a few dozen full-screen PNGs, whatever the cassette holds. */
export const FRAME_CACHE_BYTES = 48 * 2 ** 20;

export function createFrameCache(options: { dir: string; where: string; maxBytes?: number }): FrameCache {
  const lru = createLru<string, string>({ maxWeight: options.maxBytes ?? FRAME_CACHE_BYTES });
  return {
    base64: (ref) =>
      lru.through(
        ref,
        () => loadFrame({ dir: options.dir, ref, where: options.where }).toString("base64"),
        (b64) => b64.length,
      ),
  };
}
