import { createHarnessSession as createCoreSession, type HarnessSession, type HarnessSessionOptions } from "./core/session.js";
import { perceptualCompareFrames } from "./screen/compare-frames.js";

/**
 * The reference harness session (docs/sessions.md), with the perceptual screen comparison as its
 * `compareFrames` part unless one is given. The pure core's version compares bytes and elements.
 */
export function createHarnessSession(options: HarnessSessionOptions): HarnessSession {
  return createCoreSession({ ...options, parts: { compareFrames: perceptualCompareFrames, ...options.parts } });
}
