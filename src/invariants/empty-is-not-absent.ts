import type { RequestEntry } from "#src/schema/replay-log.js";
import { isAnswered, isInput, quote, targetWindow } from "./classify.js";
import { causeTracker } from "./evidence.js";
import type { Invariant } from "./types.js";

function isEmptyWindowList(r: RequestEntry): boolean {
  if (r.tool !== "list_windows") return false;
  return !isAnswered(r) || r.fault?.kind === "empty" || r.result?.empty === true || r.result?.window_ids?.length === 0;
}

/** Window ids a successful observation showed: listed ids, or the window get_window_state read. */
function observedWindows(r: RequestEntry): number[] {
  if (!isAnswered(r) || r.result?.empty === true) return [];
  const ids = [...(r.result?.window_ids ?? [])];
  if (r.tool === "get_window_state") {
    const w = targetWindow(r);
    if (w !== undefined) ids.push(w);
  }
  return ids;
}

// An empty or failed window list means "could not see", not "nothing is there": a harness that
// keeps acting on a window it remembers from before is acting blind.
export const emptyIsNotAbsent: Invariant = {
  id: "empty-is-not-absent",
  statement: "After an empty or failed list_windows, the harness does not send an input aimed at a window it has not observed since.",
  check(entries) {
    const causes = causeTracker("empty-is-not-absent");
    let empty: RequestEntry | undefined;
    const seen = new Set<number>();
    for (const e of entries) {
      if (e.type !== "request") continue;
      if (isEmptyWindowList(e)) {
        if (empty) causes.close(String(empty.n));
        empty = e;
        seen.clear();
        continue;
      }
      if (!empty) continue;
      for (const w of observedWindows(e)) seen.add(w);
      const w = targetWindow(e);
      if (isInput(e) && w !== undefined && !seen.has(w)) {
        const cause = empty;
        causes.offend(String(cause.n), e, () => ({
          message: `${quote(e)} targets window ${w}, which no observation has shown since ${quote(cause)} came back ${isAnswered(cause) ? "empty" : "failed"}`,
          requests: [cause, e],
        }));
      }
    }
    return causes.violations();
  },
};
