import type { Fault } from "#src/schema/fault-plan.js";

type DelayFault = Extract<Fault, { kind: "delay" }>;

/** A delay whose length is drawn per request (a distribution other than `fixed`). */
export function isDrawnDelay(fault: Fault): fault is DelayFault {
  return fault.kind === "delay" && distributionOf(fault) !== "fixed";
}

export function distributionOf(fault: DelayFault): "fixed" | "uniform" | "lognormal" {
  return fault.distribution ?? (fault.jitter_ms !== undefined ? "uniform" : "fixed");
}

/**
 * One delay in whole milliseconds from `random` (uniform on [0, 1)): uniform on
 * [ms − jitter_ms, ms + jitter_ms], or lognormal with median `ms` and spread `sigma`
 * (Box–Muller, two draws). Never negative; capped at `max_ms`.
 */
export function drawDelay(fault: DelayFault, random: () => number): number {
  let value: number;
  switch (distributionOf(fault)) {
    case "fixed":
      value = fault.ms;
      break;
    case "uniform": {
      const j = fault.jitter_ms ?? 0;
      value = fault.ms - j + random() * 2 * j;
      break;
    }
    case "lognormal": {
      const u1 = 1 - random(); // (0, 1]: log is finite
      const u2 = random();
      const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
      value = fault.ms * Math.exp((fault.sigma ?? 0.5) * z);
      break;
    }
  }
  const capped = fault.max_ms !== undefined ? Math.min(value, fault.max_ms) : value;
  return Math.max(0, Math.round(capped));
}
