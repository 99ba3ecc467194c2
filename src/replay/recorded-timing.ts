import type { Decision } from "./engine/engine.js";

/** `fast`: answer at once (the default); `recorded`: each answer takes as long as the recorded call did. */
export type ReplaySpeed = "fast" | "recorded";

/**
 * The extra wait before an answer at this speed: the recorded call's duration when the request
 * was answered from a recorded exchange (replayed or faulted), else nothing. A `delay` fault adds
 * to it; a `hang` never answers anyway.
 */
export function recordedDelayMs(decision: Decision, speed: ReplaySpeed | undefined): number {
  if (speed !== "recorded" || decision.outcome === "unmatched" || decision.synthetic) return 0;
  if (decision.fault?.fault.kind === "hang") return 0;
  return Math.max(0, Math.round(decision.exchange?.durationMs ?? 0));
}
