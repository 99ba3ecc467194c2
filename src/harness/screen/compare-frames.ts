import type { HarnessParts } from "#src/harness/core/session-parts.js";
import { screenChange } from "./screen-change.js";

/** The session's `compareFrames` part: perceptual, and a frame that cannot be decoded counts as changed (it proves nothing). */
export const perceptualCompareFrames: NonNullable<HarnessParts["compareFrames"]> = async (previous, next) => {
  try {
    const r = await screenChange(Buffer.from(previous.data, "base64"), Buffer.from(next.data, "base64"));
    return r.kind === "changed";
  } catch {
    return true;
  }
};
