import type { RequestEntry } from "#src/schema/replay-log.js";
import { faultLabel, quote } from "./classify.js";
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

/**
 * One violation per cause: the first offending request makes the violation; later requests that
 * offend for the same cause are counted into it (`and 8 later: #5, #6, …`) rather than reported again.
 */
export interface CauseTracker {
  /** Report `offender` against the open cause named `cause`, or open one with `message`. */
  offend(cause: string, offender: RequestEntry, open: () => { message: string; requests: readonly RequestEntry[] }): void;
  /** Close a cause: a later offence for the same key opens a new violation. */
  close(cause: string): void;
  closeAll(): void;
  violations(): Violation[];
}

export function causeTracker(invariant: InvariantId): CauseTracker {
  const done: { base: Violation; later: RequestEntry[] }[] = [];
  const open = new Map<string, { base: Violation; later: RequestEntry[] }>();
  return {
    offend(cause, offender, make) {
      const current = open.get(cause);
      if (current) {
        current.later.push(offender);
        return;
      }
      const made = make();
      const item = { base: violation(invariant, made.message, made.requests), later: [] };
      open.set(cause, item);
      done.push(item);
    },
    close: (cause) => open.delete(cause),
    closeAll: () => open.clear(),
    violations: () =>
      done.map(({ base, later }) => {
        if (later.length === 0) return base;
        const shown = later.slice(0, 5).map((r) => `#${r.n}`);
        const more = later.length > shown.length ? `, … (${later.length - shown.length} more)` : "";
        const tail =
          later.length === 1
            ? `; ${quote(later[0] as RequestEntry)} did the same`
            : `; ${later.length} later requests did the same (${shown.join(", ")}${more})`;
        const extra = evidenceOf(later);
        return {
          ...base,
          message: `${base.message}${tail}`,
          evidence: {
            requests: [...base.evidence.requests, ...extra.requests],
            tools: [...new Set([...base.evidence.tools, ...extra.tools])],
            faults: [...base.evidence.faults, ...extra.faults],
          },
        };
      }),
  };
}
