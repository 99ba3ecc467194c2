import fc from "fast-check";
import { FUZZ_REFUSALS, namedTargets, type RefusalCode } from "#src/driver/refusals.js";
import { FAULT_PROFILES } from "#src/faults/profiles.js";
import type { Fault, FaultKind, FaultRule } from "#src/schema/fault-plan.js";

/**
 * Refusal codes the fuzzer injects: the ones a harness must treat specially, and plain ones (the
 * refusal table's `fuzz` column, in its draw order).
 */
export const FUZZ_REFUSAL_CODES: readonly RefusalCode[] = FUZZ_REFUSALS.map((r) => r.code);

/**
 * One call of the flow a fault can be aimed at: its tool, which call of that tool it is, and
 * what its arguments name (an element, pixel coordinates, a window), so the refusal codes drawn
 * for it are the ones the driver can give that call.
 */
export interface FaultTarget {
  tool: string;
  nth: number;
  mutation: boolean;
  element: boolean;
  pixels: boolean;
  window: boolean;
}

/** The fault targets of a flow: each harness call in order, numbered per tool. */
export function faultTargets(calls: readonly { tool: string; args: Record<string, unknown>; mutation: boolean }[]): FaultTarget[] {
  const seen = new Map<string, number>();
  return calls.map(({ tool, args, mutation }) => {
    const nth = (seen.get(tool) ?? 0) + 1;
    seen.set(tool, nth);
    return { tool, nth, mutation, ...namedTargets(args) };
  });
}

/** The refusal codes the driver can give a call like this one (docs/reference/cua-driver-contract.md §6), most telling first. */
export function refusalCodesFor(target: FaultTarget): RefusalCode[] {
  const aimed = { any: true, mutation: target.mutation, element: target.element, pixels: target.pixels, window: target.window };
  return FUZZ_REFUSALS.filter((r) => aimed[r.aim]).map((r) => r.code);
}

const refusal = (code: string): Fault => ({ kind: "refusal", code });

/** One arbitrary per fault kind (every kind but UNDRAWN_FAULT_KINDS is fuzzed; the order is the draw order, kept stable for seeds). */
function faultArbs(codes: readonly string[]): { [K in FaultKind]: fc.Arbitrary<Extract<Fault, { kind: K }>> } {
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
    refusal: fc.constantFrom(...codes).map((code) => ({ kind: "refusal", code })),
    delay: fc.integer({ min: 1, max: 3000 }).map((ms) => ({ kind: "delay", ms })),
    // the field faults (docs/faults.md): drawn when the fuzzer samples them (FIELD_FAULT_KINDS), never shifting the draws above
    stall: fc.integer({ min: 1000, max: 62_000 }).map((ms) => ({ kind: "stall", ms })),
    freeze: fc.constant({ kind: "freeze" }),
    no_effect: fc.constant({ kind: "no_effect" }),
    oversized: fc.constantFrom({ kind: "oversized", bytes: 1_048_576 }, { kind: "oversized", bytes: 65_536 }),
    session_expired: fc.constantFrom({ kind: "session_expired" }, { kind: "session_expired", after_ms: 300_000 }),
    protocol_error: fc.constantFrom(
      { kind: "protocol_error", reason: "unsupported_version" },
      { kind: "protocol_error", reason: "missing_protocol_version" },
      { kind: "protocol_error", reason: "missing_client_capabilities" },
    ),
  };
}

/** The kinds drawn from the field reports (docs/faults.md, "Field faults"): sampled only when asked for. */
export const FIELD_FAULT_KINDS: readonly FaultKind[] = ["stall", "freeze", "no_effect", "oversized", "session_expired"];

/**
 * Kinds the fuzzer never draws: a `protocol_error` is an MCP era refusal, which the in-process
 * harness the fuzzer drives sees as a transport error, as it sees `daemon_down` (drawn already);
 * leaving it out keeps every seed's draws as they were.
 */
export const UNDRAWN_FAULT_KINDS: readonly FaultKind[] = ["protocol_error"];

/** One fault of any kind; `field: true` adds the field kinds to the draw (a given seed then draws other faults). */
export function faultArb(codes: readonly string[] = FUZZ_REFUSAL_CODES, options: { field?: boolean } = {}): fc.Arbitrary<Fault> {
  const arbs = faultArbs(codes);
  const kinds = (Object.keys(arbs) as FaultKind[]).filter(
    (kind) => !UNDRAWN_FAULT_KINDS.includes(kind) && (options.field === true || !FIELD_FAULT_KINDS.includes(kind)),
  );
  return fc.oneof(...kinds.map((kind) => arbs[kind] as fc.Arbitrary<Fault>));
}

/**
 * A fault for one call of the flow: every kind stays possible, and a refusal is drawn as often
 * as all the unknown outcomes together, with the code that call can get (the element-token
 * refusal first when the call names an element).
 */
function aimedFaultArb(target: FaultTarget): fc.Arbitrary<Fault> {
  const codes = refusalCodesFor(target);
  const [first, ...rest] = codes;
  const refusals =
    rest.length > 0
      ? fc.oneof({ weight: 2, arbitrary: fc.constant(refusal(first!)) }, { weight: 1, arbitrary: fc.constantFrom(...rest).map(refusal) })
      : fc.constant(refusal(first!));
  return fc.oneof({ weight: 3, arbitrary: faultArb(codes) }, { weight: 1, arbitrary: refusals });
}

/**
 * Which call a fault hits, and the fault. Most rules are aimed at a call the flow makes (its
 * tool and nth call, mutations three times as often as reads); the rest name a tool of the flow
 * and an nth call, or the nth mutation or read, which the flow may or may not reach. Timing is
 * the order of calls: the replayer runs on a virtual clock.
 */
export function faultRuleArb(options: { tools: readonly string[]; targets?: readonly FaultTarget[]; field?: boolean }): fc.Arbitrary<FaultRule> {
  const nth = fc.integer({ min: 1, max: 3 });
  const byTool = options.tools.length > 0 ? [fc.record({ tool: fc.constantFrom(...options.tools), nth })] : [];
  const byKind = fc.record({ kind: fc.constantFrom<"mutation" | "read">("mutation", "read"), nth });
  const loose = fc.record({ match: fc.oneof(...byTool, byKind), fault: faultArb(FUZZ_REFUSAL_CODES, { field: options.field === true }) });
  const targets = options.targets ?? [];
  if (targets.length === 0) return loose;
  const mutations = targets.filter((t) => t.mutation);
  const reads = targets.filter((t) => !t.mutation);
  const aimed = (group: readonly FaultTarget[]) =>
    fc.constantFrom(...group).chain((t) => aimedFaultArb(t).map((fault): FaultRule => ({ match: { tool: t.tool, nth: t.nth }, fault })));
  return fc.oneof(
    ...(mutations.length > 0 ? [{ weight: 6, arbitrary: aimed(mutations) }] : []),
    ...(reads.length > 0 ? [{ weight: 2, arbitrary: aimed(reads) }] : []),
    { weight: 2, arbitrary: loose },
  );
}

export function faultRulesArb(options: {
  tools: readonly string[];
  targets?: readonly FaultTarget[];
  maxRules?: number;
  /** Also draw the field kinds, and whole named profiles (docs/faults.md, "Profiles"). */
  field?: boolean;
}): fc.Arbitrary<FaultRule[]> {
  const rules = fc.array(faultRuleArb(options), { minLength: 0, maxLength: options.maxRules ?? 3 });
  if (options.field !== true) return rules;
  // a profile's rules as they are (its rates from the field), sometimes with generated ones after them
  const profile = fc
    .record({ profile: fc.constantFrom(...FAULT_PROFILES), extra: fc.array(faultRuleArb(options), { maxLength: 1 }) })
    .map(({ profile: p, extra }) => [...p.plan.rules, ...extra]);
  return fc.oneof({ weight: 2, arbitrary: rules }, { weight: 1, arbitrary: profile });
}
