import type { RequestEntry } from "#src/schema/replay-log.js";
import { requestKey } from "./canonical.js";
import { LIFECYCLE_TOOLS, isDeclaredObservation, isTransportFault, outcomeOf, quote, timelineOf } from "./classify.js";
import { violation } from "./evidence.js";
import type { Invariant, Violation } from "./types.js";

// A lost answer does not prove a mutation failed; only reads are safe to send again automatically.
// A call that never reached the driver (no daemon, the client exited first) did nothing: sending it
// again is safe, whatever it is.
export const retryReadOnlyOnly: Invariant = {
  id: "retry-read-only-only",
  statement:
    "Only read-only tools are retried after a transport error that left the outcome unknown (not after one that never reached the driver; a declared look in between makes it no retry).",
  check(entries) {
    const out: Violation[] = [];
    let failed: RequestEntry | undefined;
    for (const r of timelineOf(entries)) {
      // the harness looked by its own means before it sent the call again: a decision, not an automatic retry
      if (isDeclaredObservation(r)) failed = undefined;
      if (r.type !== "request") continue;
      // reconnecting (initialize, tools/list on a new stream) or re-declaring the session is not a different call
      if (failed && (r.kind === "other" || LIFECYCLE_TOOLS.has(r.tool ?? ""))) continue;
      if (failed && r.kind !== "read" && requestKey(r) === requestKey(failed)) {
        out.push(
          violation(
            "retry-read-only-only",
            `${quote(r)} retries ${quote(failed)} after a transport error (${failed.fault?.kind}), but ${r.tool ?? r.method} is not read-only`,
            [failed, r],
          ),
        );
      }
      failed = isTransportFault(r) && outcomeOf(r) === "unknown" ? r : undefined;
    }
    return out;
  },
};
