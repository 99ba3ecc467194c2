import fc from "fast-check";
import type { Fault, FaultKind, FaultRule } from "../../schema/fault-plan.js";

/** Refusal codes the fuzzer injects: the ones a harness must treat specially, and plain ones. */
export const FUZZ_REFUSAL_CODES = [
  "stale_element_token",
  "session_ended",
  "background_unavailable",
  "input_busy",
  "px_frame_mismatch",
  "ambiguous_window_target",
] as const;

/** One arbitrary per fault kind (every kind is fuzzed; the order is the draw order, kept stable for seeds). */
function faultArbs(): { [K in FaultKind]: fc.Arbitrary<Extract<Fault, { kind: K }>> } {
  return {
    timeout_after_effect: fc.constant({ kind: "timeout_after_effect" }),
    timeout_before_effect: fc.constant({ kind: "timeout_before_effect" }),
    hang: fc.constant({ kind: "hang" }),
    daemon_died_midcall: fc.constant({ kind: "daemon_died_midcall" }),
    daemon_down: fc.constant({ kind: "daemon_down" }),
    exit: fc.constantFrom({ kind: "exit", code: 1 }, { kind: "exit", code: 64 }),
    truncated: fc.constant({ kind: "truncated" }),
    empty: fc.constant({ kind: "empty" }),
    corrupt_image: fc.constant({ kind: "corrupt_image" }),
    refusal: fc.constantFrom(...FUZZ_REFUSAL_CODES).map((code) => ({ kind: "refusal", code })),
    delay: fc.integer({ min: 1, max: 3000 }).map((ms) => ({ kind: "delay", ms })),
  };
}

export function faultArb(): fc.Arbitrary<Fault> {
  return fc.oneof(...Object.values(faultArbs()));
}

/**
 * Which call a fault hits: a tool of the flow and its nth call, or the nth mutation or read.
 * Timing is the order of calls: the replayer runs on a virtual clock.
 */
export function faultRuleArb(options: { tools: readonly string[] }): fc.Arbitrary<FaultRule> {
  const nth = fc.integer({ min: 1, max: 3 });
  const byTool = options.tools.length > 0 ? [fc.record({ tool: fc.constantFrom(...options.tools), nth })] : [];
  const byKind = fc.record({ kind: fc.constantFrom<"mutation" | "read">("mutation", "read"), nth });
  return fc.record({ match: fc.oneof(...byTool, byKind), fault: faultArb() });
}

export function faultRulesArb(options: { tools: readonly string[]; maxRules?: number }): fc.Arbitrary<FaultRule[]> {
  return fc.array(faultRuleArb(options), { minLength: 0, maxLength: options.maxRules ?? 3 });
}
