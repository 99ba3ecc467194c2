import fc from "fast-check";
import { HARNESS_MUTATING_ACTIONS } from "#src/driver/catalogue.js";
import type { FaultRule } from "#src/schema/fault-plan.js";
import type { HarnessAction } from "#src/schema/harness-step.js";
import type { StepExpectation } from "#src/schema/scenario.js";
import { faultRulesArb, type FaultTarget } from "./fault-plan.js";
import { blockedComboArb, destructiveTextArb } from "./guard-probes.js";

/** A flow the fuzzer varies: a step script that replays against one cassette. */
export interface FuzzBase {
  name: string;
  steps: HarnessAction[];
  /** The base's own fault rules (a scenario's plan), kept or dropped per case. */
  rules: FaultRule[];
  /** Tools the flow calls, for aiming fault rules. */
  tools: string[];
  /** The calls the flow makes, in order, for aiming fault rules at them. */
  targets?: FaultTarget[];
  /** The window guard probes aim at, when the flow has one. */
  window?: { pid: number; window_id: number };
}

/** One generated run: a base, a fault plan, a varied step script, and what the harness must do. */
export interface FuzzCase {
  base: number;
  steps: HarnessAction[];
  rules: FaultRule[];
  /** Expectations that follow from how the steps were made (a blocked combo is never sent). */
  expect: StepExpectation[];
}

type Probe = { kind: "key_combo"; keys: string | string[] } | { kind: "typed_text"; text: string };

function probeArb(): fc.Arbitrary<Probe> {
  return fc.oneof(
    blockedComboArb().map((keys): Probe => ({ kind: "key_combo", keys })),
    destructiveTextArb().map((text): Probe => ({ kind: "typed_text", text })),
  );
}

function probeAction(probe: Probe, window: FuzzBase["window"]): HarnessAction {
  const target = window ? { pid: window.pid, window_id: window.window_id } : {};
  return probe.kind === "key_combo" ? { action: "hotkey", ...target, keys: probe.keys } : { action: "type_text", ...target, text: probe.text };
}

/**
 * Cases over the given bases: generated fault rules (with or without the base's own), one
 * mutation step repeated (loops), and guard probes inserted (respelled blocked combos, destructive text).
 */
export function fuzzCaseArb(bases: readonly FuzzBase[], options: { fieldFaults?: boolean } = {}): fc.Arbitrary<FuzzCase> {
  return fc.nat({ max: bases.length - 1 }).chain((index) => {
    const base = bases[index]!;
    const mutationSteps = base.steps.flatMap((s, i) => (HARNESS_MUTATING_ACTIONS.has(s.action) ? [i] : []));
    return fc
      .record({
        keepBaseRules: fc.boolean(),
        rules: faultRulesArb({ tools: base.tools, ...(base.targets ? { targets: base.targets } : {}), ...(options.fieldFaults ? { field: true } : {}) }),
        repeat:
          mutationSteps.length > 0
            ? fc.option(fc.record({ step: fc.constantFrom(...mutationSteps), times: fc.integer({ min: 1, max: 7 }) }), { nil: undefined })
            : fc.constant(undefined),
        probes: fc.array(fc.record({ at: fc.nat({ max: base.steps.length }), probe: probeArb() }), { maxLength: 2 }),
      })
      .map(({ keepBaseRules, rules, repeat, probes }) => buildCase({ index, base, keepBaseRules, rules, repeat, probes }));
  });
}

function buildCase(o: {
  index: number;
  base: FuzzBase;
  keepBaseRules: boolean;
  rules: FaultRule[];
  repeat: { step: number; times: number } | undefined;
  probes: { at: number; probe: Probe }[];
}): FuzzCase {
  type Slot = { action: HarnessAction; probe?: Probe };
  const slots: Slot[][] = o.base.steps.map((action, i) => {
    const copies = o.repeat?.step === i ? 1 + o.repeat.times : 1;
    return Array.from({ length: copies }, () => ({ action }));
  });
  slots.push([]);
  for (const { at, probe } of o.probes) slots[at]!.unshift({ action: probeAction(probe, o.base.window), probe });
  const flat = slots.flat();
  const expect: StepExpectation[] = flat.flatMap((slot, i) =>
    slot.probe ? [{ step: i + 1, not_calls: slot.probe.kind === "key_combo" ? ["hotkey", "press_key"] : ["type_text"] }] : [],
  );
  return {
    base: o.index,
    steps: flat.map((s) => s.action),
    rules: [...(o.keepBaseRules ? o.base.rules : []), ...o.rules],
    expect,
  };
}
