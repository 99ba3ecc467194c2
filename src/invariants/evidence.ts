import type { RequestEntry } from "#src/schema/replay-log.js";
import { faultLabel } from "./classify.js";
import type { Evidence, InvariantId, Violation } from "./types.js";

export function evidenceOf(requests: readonly RequestEntry[]): Evidence {
  return {
    requests: requests.map((r) => r.n),
    tools: [...new Set(requests.map((r) => r.tool ?? r.method))],
    faults: requests.map(faultLabel).filter((f): f is string => f !== undefined),
  };
}

export function violation(invariant: InvariantId, message: string, requests: readonly RequestEntry[]): Violation {
  return { invariant, message, evidence: evidenceOf(requests) };
}
