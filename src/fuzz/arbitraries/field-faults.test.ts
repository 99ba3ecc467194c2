import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FAULT_PROFILES } from "#src/faults/profiles.js";
import type { FaultRule } from "#src/schema/fault-plan.js";
import { FIELD_FAULT_KINDS, faultRulesArb } from "./fault-plan.js";

const TOOLS = ["get_window_state", "click", "type_text", "get_desktop_state"];
const sample = (field: boolean, seed: number): FaultRule[][] =>
  fc.sample(faultRulesArb({ tools: TOOLS, ...(field ? { field: true } : {}) }), { seed, numRuns: 400 });
const kindsOf = (plans: FaultRule[][]) => new Set(plans.flat().map((r) => r.fault.kind));

describe("the fuzzer samples the field faults and the profiles when asked", () => {
  it("by default it draws none of the field kinds (a seed finds what it found before)", () => {
    const kinds = kindsOf(sample(false, 3));
    for (const kind of FIELD_FAULT_KINDS) expect(kinds.has(kind), kind).toBe(false);
  });

  it("with field faults it draws every field kind, and whole profiles with their rates", () => {
    const plans = sample(true, 3);
    const kinds = kindsOf(plans);
    for (const kind of FIELD_FAULT_KINDS) expect(kinds.has(kind), kind).toBe(true);
    for (const profile of FAULT_PROFILES) {
      const drawn = plans.some((plan) => JSON.stringify(plan.slice(0, profile.plan.rules.length)) === JSON.stringify(profile.plan.rules));
      expect(drawn, profile.name).toBe(true);
    }
  });

  it("the same seed draws the same plans", () => {
    expect(sample(true, 9)).toEqual(sample(true, 9));
    expect(sample(true, 9)).not.toEqual(sample(true, 10));
  });
});
