import type { FaultKind } from "../schema/replay-log.js";

/**
 * Faults after which the call reached the driver and took effect (the epoch advances on replay;
 * `record --faults` forwards the call and withholds or mangles the real answer). Every other
 * fault stops the call before the driver acts (a timeout before the effect, a death, a refusal).
 */
export const EFFECT_FAULTS: ReadonlySet<FaultKind> = new Set(["delay", "timeout_after_effect", "truncated", "corrupt_image", "empty"]);

export function faultTakesEffect(kind: FaultKind): boolean {
  return EFFECT_FAULTS.has(kind);
}
