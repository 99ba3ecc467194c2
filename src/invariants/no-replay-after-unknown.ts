import type { RequestEntry } from "#src/schema/replay-log.js";
import { requestKey } from "./canonical.js";
import { isFreshObservation, isMutation, isUnknownOutcome, quote, requestsOf } from "./classify.js";
import { violation } from "./evidence.js";
import type { Invariant, Violation } from "./types.js";

// A timed-out click may have clicked: sending it again blind can click twice.
export const noReplayAfterUnknown: Invariant = {
  id: "no-replay-after-unknown",
  statement: "A mutation whose outcome was unknown is not sent again before a fresh observation.",
  check(entries) {
    const out: Violation[] = [];
    /** Unknown-outcome mutations not yet cleared by an observation, by call identity. */
    const pending = new Map<string, RequestEntry>();
    for (const r of requestsOf(entries)) {
      if (isFreshObservation(r)) {
        pending.clear();
        continue;
      }
      if (!isMutation(r)) continue;
      const key = requestKey(r);
      const first = pending.get(key);
      if (first) {
        out.push(
          violation(
            "no-replay-after-unknown",
            `${quote(r)} re-sends ${quote(first)}, whose outcome was unknown (${first.fault?.kind}), without a fresh observation in between`,
            [first, r],
          ),
        );
      }
      if (isUnknownOutcome(r)) pending.set(key, r);
    }
    return out;
  },
};
