import type { OutcomeClass } from "#src/driver/outcome.js";
import { FaultKindSchema, type Fault, type FaultKind } from "#src/schema/fault-plan.js";

/**
 * What a fault kind means, in one place. Every rule that depends on the kind reads it from here
 * (the replay's epoch, `record --faults`, the invariants, the fuzzer's oracles, the report); each
 * transport's rendering of a kind is a switch that ends in `assertNever`, so a kind added to
 * `FaultSchema` fails the type-check until this table and every rendering handle it
 * (docs/architecture.md, "Adding a fault kind").
 */
export interface FaultTraits {
  /**
   * The call reached the driver and took effect: the replay advances the epoch after it, and
   * `record --faults` forwards the call and withholds or mangles the real answer. Every other
   * kind stops the call before the driver acts: later reads show the state as it was.
   */
  readonly takesEffect: boolean;
  /** The harness cannot know whether a mutation took effect (no answer, or one it cannot read). */
  readonly unknownOutcome: boolean;
  /** The transport failed: the harness got no normal answer (no answer, an error, a death, a cut line). */
  readonly breaksTransport: boolean;
  /** No answer at all: the call hangs until the harness's timeout or the driver's deadline. */
  readonly timesOut: boolean;
  /** Changes the tool result itself, not the transport (built by `applyResultFault`). */
  readonly changesResult: boolean;
  /**
   * What the harness can know of the call's effect (`src/driver/outcome.ts`): `not_reached` (it never
   * reached the driver: safe to send again), `refused`, `unknown` or `done`.
   */
  readonly outcome: OutcomeClass;
}

export const FAULT_TABLE = {
  hang: { takesEffect: false, unknownOutcome: true, breaksTransport: true, timesOut: true, changesResult: false, outcome: "unknown" },
  delay: { takesEffect: true, unknownOutcome: false, breaksTransport: false, timesOut: false, changesResult: false, outcome: "done" },
  timeout_after_effect: { takesEffect: true, unknownOutcome: true, breaksTransport: true, timesOut: true, changesResult: false, outcome: "unknown" },
  timeout_before_effect: { takesEffect: false, unknownOutcome: true, breaksTransport: true, timesOut: true, changesResult: false, outcome: "unknown" },
  daemon_down: { takesEffect: false, unknownOutcome: false, breaksTransport: true, timesOut: false, changesResult: false, outcome: "not_reached" },
  daemon_died_midcall: { takesEffect: false, unknownOutcome: true, breaksTransport: true, timesOut: false, changesResult: false, outcome: "unknown" },
  exit: { takesEffect: false, unknownOutcome: false, breaksTransport: true, timesOut: false, changesResult: false, outcome: "not_reached" },
  truncated: { takesEffect: true, unknownOutcome: true, breaksTransport: true, timesOut: false, changesResult: false, outcome: "unknown" },
  corrupt_image: { takesEffect: true, unknownOutcome: false, breaksTransport: false, timesOut: false, changesResult: true, outcome: "done" },
  empty: { takesEffect: true, unknownOutcome: false, breaksTransport: false, timesOut: false, changesResult: true, outcome: "done" },
  refusal: { takesEffect: false, unknownOutcome: false, breaksTransport: false, timesOut: false, changesResult: true, outcome: "refused" },
  stall: { takesEffect: true, unknownOutcome: false, breaksTransport: false, timesOut: false, changesResult: false, outcome: "done" },
  freeze: { takesEffect: false, unknownOutcome: true, breaksTransport: true, timesOut: true, changesResult: false, outcome: "unknown" },
  // answered as delivered (the harness is told done), yet the screen does not change: the epoch stays
  no_effect: { takesEffect: false, unknownOutcome: false, breaksTransport: false, timesOut: false, changesResult: false, outcome: "done" },
  oversized: { takesEffect: true, unknownOutcome: false, breaksTransport: false, timesOut: false, changesResult: true, outcome: "done" },
  session_expired: { takesEffect: false, unknownOutcome: false, breaksTransport: false, timesOut: false, changesResult: true, outcome: "refused" },
  // refused before dispatch, as a protocol error: no tool ran, so sending it again (with the right metadata) is safe
  protocol_error: { takesEffect: false, unknownOutcome: false, breaksTransport: true, timesOut: false, changesResult: false, outcome: "not_reached" },
} as const satisfies Record<FaultKind, FaultTraits>;

/** Every fault kind, in the schema's order. */
export const FAULT_KINDS: readonly FaultKind[] = FaultKindSchema.options;

type KindsWith<T extends keyof FaultTraits> = { [K in FaultKind]: (typeof FAULT_TABLE)[K][T] extends true ? K : never }[FaultKind];

function kindsWith(trait: keyof FaultTraits): ReadonlySet<FaultKind> {
  return new Set(FAULT_KINDS.filter((kind) => FAULT_TABLE[kind][trait]));
}

/** Faults after which the call took effect (the epoch advances; `record --faults` forwards it). */
export const EFFECT_FAULTS: ReadonlySet<FaultKind> = kindsWith("takesEffect");
/** Faults after which the harness cannot know whether a mutation took effect. */
export const UNKNOWN_OUTCOME_FAULTS: readonly FaultKind[] = [...kindsWith("unknownOutcome")];
/** Faults that break the transport (the harness got no normal answer). */
export const TRANSPORT_FAULTS: ReadonlySet<FaultKind> = kindsWith("breaksTransport");
/** Faults that answer nothing (the call times out). */
export const TIMEOUT_FAULTS: ReadonlySet<FaultKind> = kindsWith("timesOut");
/** Faults that change the tool result rather than the transport. */
export const RESULT_FAULTS: ReadonlySet<FaultKind> = kindsWith("changesResult");

export type ResultFaultKind = KindsWith<"changesResult">;
export type ResultFault = Extract<Fault, { kind: ResultFaultKind }>;

/** The outcome class a fault gives the call it is injected into. */
export function faultOutcome(kind: FaultKind): OutcomeClass {
  return FAULT_TABLE[kind].outcome;
}

export function faultTakesEffect(kind: FaultKind): boolean {
  return FAULT_TABLE[kind].takesEffect;
}

export function isResultFault(fault: Fault): fault is ResultFault {
  return FAULT_TABLE[fault.kind].changesResult;
}
