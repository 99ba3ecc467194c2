import type { RequestEntry } from "#src/schema/replay-log.js";
import { isMutation, isRebuild, isTimeout, mayHaveActed, outcomeOf, quote } from "./classify.js";
import { causeTracker } from "./evidence.js";
import type { Invariant } from "./types.js";

/** A call after which the session may still be acting: a mutation that timed out, or a daemon death mid-call. */
function leavesSessionSuspect(r: RequestEntry): boolean {
  if (outcomeOf(r) !== "unknown") return false;
  return (isMutation(r) && isTimeout(r)) || r.fault?.kind === "daemon_died_midcall";
}

// A timed-out or orphaned session may still be acting; the next mutation needs a fresh session.
export const rebuildBeforeMutation: Invariant = {
  id: "rebuild-before-mutation",
  statement:
    "After a mutation timeout or daemon death, the next mutation the driver may carry out is preceded by a session rebuild (start_session, or a new `cua-driver mcp` process); a call refused before it ran is not one.",
  check(entries) {
    const causes = causeTracker("rebuild-before-mutation");
    let suspect: RequestEntry | undefined;
    const clear = () => {
      if (suspect) causes.close(String(suspect.n));
      suspect = undefined;
    };
    for (const e of entries) {
      if (e.type === "stream") {
        // a new `cua-driver mcp` process is a new runtime; a new HTTP connection reaches the same daemon
        if (e.event === "open" && e.transport === "mcp" && suspect && e.stream !== suspect.stream) clear();
        continue;
      }
      if (e.type !== "request") continue;
      if (isRebuild(e)) {
        clear();
        continue;
      }
      const cause = suspect;
      if (cause && mayHaveActed(e)) {
        causes.offend(String(cause.n), e, () => ({
          message: `${quote(e)} is a mutation sent after ${quote(cause)} failed with ${cause.fault?.kind ?? "no answer"}, with no session rebuild in between`,
          requests: [cause, e],
        }));
      }
      if (!suspect && leavesSessionSuspect(e)) suspect = e;
    }
    return causes.violations();
  },
};
