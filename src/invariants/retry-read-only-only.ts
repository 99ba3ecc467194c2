import type { RequestEntry } from "#src/schema/replay-log.js";
import { requestKey } from "./canonical.js";
import { LIFECYCLE_TOOLS, isTransportFault, quote, requestsOf } from "./classify.js";
import { violation } from "./evidence.js";
import type { Invariant, Violation } from "./types.js";

// A lost answer does not prove a mutation failed; only reads are safe to send again automatically.
export const retryReadOnlyOnly: Invariant = {
  id: "retry-read-only-only",
  statement: "Only read-only tools are retried after transport errors.",
  check(entries) {
    const out: Violation[] = [];
    let failed: RequestEntry | undefined;
    for (const r of requestsOf(entries)) {
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
      failed = isTransportFault(r) ? r : undefined;
    }
    return out;
  },
};
