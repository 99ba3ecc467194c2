import type { Fault, FaultKind } from "#src/schema/fault-plan.js";

/**
 * One fault of every kind, with parameters a test can serve: a per-kind record, so a new kind does
 * not type-check until it has its sample here (docs/architecture.md, "Adding a fault kind").
 */
export const FAULT_SAMPLE: { [K in FaultKind]: Extract<Fault, { kind: K }> } = {
  hang: { kind: "hang" },
  delay: { kind: "delay", ms: 250 },
  timeout_after_effect: { kind: "timeout_after_effect" },
  timeout_before_effect: { kind: "timeout_before_effect" },
  daemon_down: { kind: "daemon_down" },
  daemon_died_midcall: { kind: "daemon_died_midcall" },
  exit: { kind: "exit", code: 3, stderr: "driver gone\n" },
  truncated: { kind: "truncated" },
  corrupt_image: { kind: "corrupt_image" },
  empty: { kind: "empty" },
  refusal: { kind: "refusal", code: "stale_element_token" },
  stall: { kind: "stall", ms: 62_000 },
  freeze: { kind: "freeze" },
  no_effect: { kind: "no_effect" },
  oversized: { kind: "oversized", bytes: 1_048_576 },
  session_expired: { kind: "session_expired" },
  protocol_error: { kind: "protocol_error", reason: "unsupported_version" },
};
