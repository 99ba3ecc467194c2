import type { RequestEntry } from "#src/schema/replay-log.js";
import { isTimeout, quote } from "./classify.js";
import { causeTracker } from "./evidence.js";
import type { Invariant } from "./types.js";

// cua-driver's MCP loop answers one request at a time: behind a call that never returns, every
// later request on the same stdio stream waits for ever. A harness that gave up on the call must
// give up on the stream too (start a new `cua-driver mcp` process), or it waits on nothing.
export const noUseAfterHang: Invariant = {
  id: "no-use-after-hang",
  statement:
    "After a call on an MCP stdio stream got no answer (a hang or a timeout), the harness sends nothing more on that stream: it starts a new process (notifications such as a cancellation are not requests).",
  check(entries) {
    const causes = causeTracker("no-use-after-hang");
    /** The call each stream is stuck on, by stream number. */
    const stuck = new Map<number, RequestEntry>();
    for (const e of entries) {
      if (e.type === "stream") {
        if (e.event === "close" && e.transport === "mcp") stuck.delete(e.stream);
        continue;
      }
      if (e.type !== "request" || e.transport !== "mcp" || e.stream === undefined) continue;
      const hung = stuck.get(e.stream);
      if (hung) {
        causes.offend(String(hung.n), e, () => ({
          message: `${quote(e)} is sent on MCP stream ${e.stream} after ${quote(hung)} got no answer there (${hung.fault?.kind}); the driver answers one request at a time, so it is never answered: start a new \`cua-driver mcp\` process`,
          requests: [hung, e],
        }));
        continue;
      }
      if (isTimeout(e)) stuck.set(e.stream, e);
    }
    return causes.violations();
  },
};
