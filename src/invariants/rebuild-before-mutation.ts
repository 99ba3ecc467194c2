import type { RequestEntry } from "#src/schema/replay-log.js";
import { isMutation, isRebuild, isTimeout, quote } from "./classify.js";
import { violation } from "./evidence.js";
import type { Invariant, Violation } from "./types.js";

// A timed-out or orphaned session may still be acting; the next mutation needs a fresh session.
export const rebuildBeforeMutation: Invariant = {
  id: "rebuild-before-mutation",
  statement: "After a mutation timeout or daemon death, the next mutation is preceded by a session rebuild (start_session, or a new `cua-driver mcp` process).",
  check(entries) {
    const out: Violation[] = [];
    let suspect: RequestEntry | undefined;
    for (const e of entries) {
      if (e.type === "stream") {
        // a new `cua-driver mcp` process is a new runtime; a new HTTP connection reaches the same daemon
        if (e.event === "open" && e.transport === "mcp" && suspect && e.stream !== suspect.stream) suspect = undefined;
        continue;
      }
      if (e.type !== "request") continue;
      if (isRebuild(e)) {
        suspect = undefined;
        continue;
      }
      if (suspect && isMutation(e)) {
        out.push(
          violation(
            "rebuild-before-mutation",
            `${quote(e)} is a mutation sent after ${quote(suspect)} failed with ${suspect.fault?.kind}, with no session rebuild in between`,
            [suspect, e],
          ),
        );
        suspect = undefined;
      }
      if ((isMutation(e) && isTimeout(e)) || e.fault?.kind === "daemon_died_midcall") suspect = e;
    }
    return out;
  },
};
