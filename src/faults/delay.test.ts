import { describe, expect, it } from "vitest";
import { isUserError } from "#src/errors.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";
import { drawDelay } from "./delay.js";
import { parseFaultPlan } from "./parse-plan.js";
import { createPrng } from "./prng.js";
import { createFaultSelector } from "./select.js";

const delays = (plan: FaultPlan, n: number, seed = 1) => {
  const s = createFaultSelector({ plan, seed });
  return Array.from({ length: n }, () => {
    const f = s.next({ tool: "click", kind: "mutation" })?.fault;
    return f?.kind === "delay" ? f.ms : undefined;
  });
};

describe("delay distributions", () => {
  it("uniform: every draw within ms ± jitter_ms, spread across it, the same for the same seed", () => {
    const plan: FaultPlan = { rules: [{ match: {}, fault: { kind: "delay", ms: 1000, jitter_ms: 400 } }] };
    const a = delays(plan, 500);
    expect(a.every((ms) => ms !== undefined && ms >= 600 && ms <= 1400)).toBe(true);
    expect(Math.min(...(a as number[]))).toBeLessThan(650);
    expect(Math.max(...(a as number[]))).toBeGreaterThan(1350);
    expect(delays(plan, 500)).toEqual(a);
    expect(delays(plan, 500, 2)).not.toEqual(a);
  });

  it("lognormal: median near ms, a right tail, capped by max_ms, never negative", () => {
    const plan: FaultPlan = { rules: [{ match: {}, fault: { kind: "delay", ms: 200, distribution: "lognormal", sigma: 1, max_ms: 5000 } }] };
    const a = (delays(plan, 2001) as number[]).sort((x, y) => x - y);
    const median = a[1000]!;
    expect(median).toBeGreaterThan(170);
    expect(median).toBeLessThan(235);
    expect(a.at(-1)!).toBeGreaterThan(1500); // e^(1·3σ-ish) tail
    expect(a.at(-1)!).toBeLessThanOrEqual(5000);
    expect(a[0]!).toBeGreaterThanOrEqual(0);
  });

  it("fixed stays fixed; a drawn delay never shifts another rule's probability draws", () => {
    expect(delays({ rules: [{ match: {}, fault: { kind: "delay", ms: 30 } }] }, 3)).toEqual([30, 30, 30]);
    const coin = { match: { tool: "press_key", probability: 0.5 }, fault: { kind: "exit" as const, code: 1 } };
    const fired = (plan: FaultPlan) => {
      const s = createFaultSelector({ plan, seed: 9 });
      return Array.from({ length: 40 }, (_, i) =>
        i % 2 ? s.next({ tool: "press_key", kind: "mutation" }) !== undefined : (s.next({ tool: "click", kind: "mutation" }), false),
      );
    };
    const without = fired({ rules: [coin] });
    const withJitter = fired({ rules: [{ match: { tool: "click" }, fault: { kind: "delay", ms: 100, jitter_ms: 50 } }, coin] });
    expect(withJitter).toEqual(without);
  });

  it("drawDelay rounds to whole milliseconds", () => {
    const r = createPrng(3);
    const d = drawDelay({ kind: "delay", ms: 10, jitter_ms: 3 }, r);
    expect(Number.isInteger(d)).toBe(true);
  });

  it("refuses parameters that belong to another distribution, naming the field", () => {
    const message = (fault: object) => {
      try {
        parseFaultPlan({ file: "p.json", text: JSON.stringify({ rules: [{ match: {}, fault }] }) });
      } catch (error) {
        expect(isUserError(error)).toBe(true);
        return (error as Error).message;
      }
      return "accepted";
    };
    expect(message({ kind: "delay", ms: 5, distribution: "lognormal", jitter_ms: 3 })).toBe(
      'p.json: rules[0].fault.jitter_ms: jitter_ms belongs to the uniform distribution, not lognormal. Drop jitter_ms, or use "distribution": "uniform" (for lognormal, set "sigma").',
    );
    expect(message({ kind: "delay", ms: 5, sigma: 1 })).toBe(
      'p.json: rules[0].fault.sigma: sigma belongs to the lognormal distribution, not fixed. Add "distribution": "lognormal", or drop sigma.',
    );
    expect(message({ kind: "delay", ms: 5, distribution: "uniform" })).toBe(
      'p.json: rules[0].fault.jitter_ms: a uniform delay needs jitter_ms (the half-width around ms). Add e.g. "jitter_ms": 200.',
    );
    expect(message({ kind: "delay", ms: 5, distribution: "gamma" })).toMatch(/^p\.json: rules\[0\]\.fault\.distribution: /);
    expect(message({ kind: "delay", ms: 5, distribution: "lognormal", sigma: 0.3 })).toBe("accepted");
  });
});
