import fc from "fast-check";
import type { Fault, FaultRule } from "../../schema/fault-plan.js";

/** Refusal codes the fuzzer injects: the ones a harness must treat specially, and plain ones. */
export const FUZZ_REFUSAL_CODES = [
  "stale_element_token",
  "session_ended",
  "background_unavailable",
  "input_busy",
  "px_frame_mismatch",
  "ambiguous_window_target",
] as const;

export function faultArb(): fc.Arbitrary<Fault> {
  return fc.oneof(
    fc.constant<Fault>({ kind: "timeout_after_effect" }),
    fc.constant<Fault>({ kind: "timeout_before_effect" }),
    fc.constant<Fault>({ kind: "hang" }),
    fc.constant<Fault>({ kind: "daemon_died_midcall" }),
    fc.constant<Fault>({ kind: "daemon_down" }),
    fc.constantFrom<Fault>({ kind: "exit", code: 1 }, { kind: "exit", code: 64 }),
    fc.constant<Fault>({ kind: "truncated" }),
    fc.constant<Fault>({ kind: "empty" }),
    fc.constant<Fault>({ kind: "corrupt_image" }),
    fc.constantFrom(...FUZZ_REFUSAL_CODES).map((code): Fault => ({ kind: "refusal", code })),
    fc.integer({ min: 1, max: 3000 }).map((ms): Fault => ({ kind: "delay", ms })),
  );
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
