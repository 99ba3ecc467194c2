import type { RequestEntry } from "#src/schema/replay-log.js";
import { requestKey } from "./canonical.js";
import { isDeclaredObservation, isFreshObservation, isMutation, isUnknownOutcome, quote, timelineOf } from "./classify.js";
import { causeTracker } from "./evidence.js";
import type { Invariant } from "./types.js";

// A timed-out click may have clicked: sending it again blind can click twice.
export const noReplayAfterUnknown: Invariant = {
  id: "no-replay-after-unknown",
  statement:
    "A mutation whose outcome was unknown is not sent again before a fresh observation (a read of the screen or a window, or one the harness declared).",
  check(entries) {
    const causes = causeTracker("no-replay-after-unknown");
    /** Unknown-outcome mutations not yet cleared by an observation, by call identity. */
    const pending = new Map<string, RequestEntry>();
    for (const e of timelineOf(entries)) {
      if (isDeclaredObservation(e)) {
        pending.clear();
        causes.closeAll();
        continue;
      }
      if (e.type !== "request") continue;
      const r = e;
      if (isFreshObservation(r)) {
        pending.clear();
        causes.closeAll();
        continue;
      }
      if (!isMutation(r)) continue;
      const key = requestKey(r);
      const first = pending.get(key);
      if (first) {
        causes.offend(key, r, () => ({
          message: `${quote(r)} re-sends ${quote(first)}, whose outcome was unknown (${first.fault?.kind ?? "no answer"}), without a fresh observation in between`,
          requests: [first, r],
        }));
      } else if (isUnknownOutcome(r)) pending.set(key, r);
    }
    return causes.violations();
  },
};
