import type { Fault, FaultPlan } from "#src/schema/fault-plan.js";
import type { ToolKind } from "#src/schema/replay-log.js";
import { createPrng } from "./prng.js";
import { drawDelay, isDrawnDelay } from "./delay.js";
import { createStickyFaults, type StickyRequest } from "./sticky.js";

export interface SelectedFault {
  /** Index of the rule in the plan. */
  rule: number;
  fault: Fault;
}

export interface FaultSelector {
  /**
   * Decide the fault (if any) for the next tool call. Call once per request, in order. The
   * transport, stream, time and session label let the faults that last (stall, freeze,
   * session_expired) end when the harness rebuilds (src/faults/sticky.ts).
   */
  next(request: { tool: string; kind: ToolKind } & Omit<StickyRequest, "tool">): SelectedFault | undefined;
}

/** `*` any run of characters, `?` one character; everything else literal. */
export function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${body}$`);
}

/**
 * Rule matching with per-rule counters and one seeded generator. Every rule with a probability
 * draws once per request it is eligible for, whether or not an earlier rule fired, so adding a
 * rule never shifts another rule's draws.
 */
export function createFaultSelector(options: { plan?: FaultPlan; seed?: number }): FaultSelector {
  const rules = options.plan?.rules ?? [];
  const seed = options.seed ?? options.plan?.seed ?? 0;
  const random = createPrng(seed);
  // delays draw from their own stream, so a jittered delay never shifts a probability draw
  const delays = createPrng((seed ^ 0x5bd1e995) >>> 0);
  const counts = rules.map(() => 0);
  const patterns = rules.map((r) => (r.match.tool ? globToRegExp(r.match.tool) : undefined));
  const sticky = createStickyFaults();
  return {
    next(request) {
      const { tool, kind } = request;
      let chosen: SelectedFault | undefined;
      rules.forEach((rule, i) => {
        const m = rule.match;
        if (patterns[i] && !patterns[i]!.test(tool)) return;
        const wanted = m.kind ?? "any";
        if (wanted !== "any" && wanted !== kind) return;
        if (wanted === "any" && kind === "other") return;
        const count = ++counts[i]!;
        let fires = true;
        if (m.nth !== undefined && count !== m.nth) fires = false;
        if (m.every !== undefined && count % m.every !== 0) fires = false;
        if (m.probability !== undefined) {
          const draw = random();
          if (draw >= m.probability) fires = false;
        }
        // no_effect is a mutation's fault: answered as delivered, it changed nothing (a read has nothing to change)
        if (rule.fault.kind === "no_effect" && kind !== "mutation") fires = false;
        if (fires && !chosen) chosen = { rule: i, fault: drawn(rule.fault, delays) };
      });
      return sticky.apply(request, chosen);
    },
  };
}

/** The fault as served: a drawn delay (alone, or a late refusal's) replaced by the ms drawn for this request. */
function drawn(fault: Fault, delays: () => number): Fault {
  if (isDrawnDelay(fault)) return { kind: "delay", ms: drawDelay(fault, delays) };
  if (fault.kind === "refusal" && fault.delay !== undefined) {
    const ms = drawDelay({ kind: "delay", ...fault.delay }, delays);
    return { ...fault, delay: { ms } };
  }
  return fault;
}
