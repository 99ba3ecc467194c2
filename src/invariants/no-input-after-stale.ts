import type { RequestEntry } from "#src/schema/replay-log.js";
import { isStaleCode } from "#src/driver/outcome.js";
import { isDeclaredObservation, isFreshObservation, isInput, quote, refusalCodeOf, timelineOf } from "./classify.js";
import { causeTracker } from "./evidence.js";
import type { Invariant } from "./types.js";

/** A `mark` entry with this label starts a new batch (one model turn's worth of actions). */
export const BATCH_MARK = "batch";

/** The refusal code when `r` was refused as stale, else undefined. */
function staleCode(r: RequestEntry, extra: readonly string[]): string | undefined {
  const code = refusalCodeOf(r);
  return isStaleCode(code, extra) ? code : undefined;
}

// A stale refusal means the harness's picture of the screen is out of date; acting again on the
// same picture aims at the wrong thing.
export const noInputAfterStale: Invariant = {
  id: "no-input-after-stale",
  statement:
    "After an input is refused as stale (stale frame or element token), no input call follows in the same batch without a new look at the window (a window list is not one; a look the harness declared is).",
  check(entries, options) {
    const causes = causeTracker("no-input-after-stale");
    let stale: { request: RequestEntry; code: string } | undefined;
    const clear = () => {
      if (stale) causes.close(String(stale.request.n));
      stale = undefined;
    };
    for (const e of timelineOf(entries)) {
      if ((e.type === "mark" && e.label === BATCH_MARK) || isDeclaredObservation(e)) clear();
      if (e.type !== "request") continue;
      // a window list names no elements and shows no pixels: only a look at the window refreshes the target
      if (isFreshObservation(e) && e.tool !== "list_windows") clear();
      else if (stale && isInput(e)) {
        const cause = stale;
        causes.offend(String(cause.request.n), e, () => ({
          message: `${quote(e)} sends input after ${quote(cause.request)} was refused as stale (${cause.code}), in the same batch and without a new observation`,
          requests: [cause.request, e],
        }));
      }
      // Only a refused input says the harness aimed at something out of date; a read has no target to be stale.
      const code = isInput(e) ? staleCode(e, options.staleCodes ?? []) : undefined;
      if (code && !stale) stale = { request: e, code };
    }
    return causes.violations();
  },
};
