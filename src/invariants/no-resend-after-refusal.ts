import { refusalHas } from "#src/driver/refusals.js";
import type { RequestEntry } from "#src/schema/replay-log.js";
import { isDiscovery, requestKey } from "./canonical.js";
import { isDeclaredObservation, isFreshObservation, isMutation, isRebuild, outcomeOf, quote, refusalCodeOf, timelineOf } from "./classify.js";
import { causeTracker } from "./evidence.js";
import type { Invariant } from "./types.js";

// A refusal is the driver's answer to that exact request in that state: sending it again unchanged,
// with nothing in between that could change the state or the harness's picture of it, gets the same
// refusal (background_unavailable says to use the foreground; stale says to look again).
export const noResendAfterRefusal: Invariant = {
  id: "no-resend-after-refusal",
  statement:
    "A mutation the driver refused with a code is not sent again unchanged unless something that could change the answer came in between: a fresh or declared observation, a mutation the driver carried out, or a session rebuild (input_busy, which means not now, is exempt).",
  check(entries) {
    const causes = causeTracker("no-resend-after-refusal");
    /** Refused mutations since the last change, by call identity. */
    const refused = new Map<string, RequestEntry>();
    const reset = () => {
      refused.clear();
      causes.closeAll();
    };
    for (const e of timelineOf(entries)) {
      if (isDeclaredObservation(e)) {
        reset();
        continue;
      }
      if (e.type !== "request" || isDiscovery(e)) continue;
      if (isFreshObservation(e) || isRebuild(e)) {
        reset();
        continue;
      }
      if (!isMutation(e)) continue;
      const key = requestKey(e);
      const first = refused.get(key);
      if (first) {
        causes.offend(key, e, () => ({
          message: `${quote(e)} re-sends ${quote(first)} unchanged after the driver refused it (${refusalCodeOf(first)}), with no new observation, carried-out mutation or rebuild in between`,
          requests: [first, e],
        }));
        continue;
      }
      const outcome = outcomeOf(e);
      const code = refusalCodeOf(e);
      // a refusal with a code is the driver saying what is wrong with this request; an error without
      // one (a permission gate, a missing argument) is what a test suite provokes on purpose
      if (outcome === "refused" && code !== undefined && !refusalHas(code, "not-now")) refused.set(key, e);
      else if (outcome === "done") reset();
    }
    return causes.violations();
  },
};
