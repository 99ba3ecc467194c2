import type { RequestEntry } from "#src/schema/replay-log.js";
import { isTimeout, quote } from "./classify.js";
import { causeTracker } from "./evidence.js";
import type { Invariant } from "./types.js";

/** A stream stuck behind a call that never returned, and the first request the harness sent there after it. */
interface Stuck {
  hung: RequestEntry;
  probe?: RequestEntry;
}

// cua-driver's MCP loop answers one request at a time: behind a call that never returns, every
// later request on the same stdio stream waits for ever. A harness may find that out once (a
// request of its own that goes unanswered too); it must then give the stream up and start a new
// `cua-driver mcp` process, not keep talking to a stream that will never answer.
export const noUseAfterHang: Invariant = {
  id: "no-use-after-hang",
  statement:
    "After a call on an MCP stdio stream got no answer (a hang or a timeout) and a later request there got none either, the harness sends nothing more on that stream: it starts a new process (notifications such as a cancellation are not requests).",
  check(entries) {
    const causes = causeTracker("no-use-after-hang");
    const stuck = new Map<number, Stuck>();
    for (const e of entries) {
      if (e.type === "stream") {
        if (e.event === "close" && e.transport === "mcp") stuck.delete(e.stream);
        continue;
      }
      if (e.type !== "request" || e.transport !== "mcp" || e.stream === undefined) continue;
      const s = stuck.get(e.stream);
      if (!s) {
        if (isTimeout(e)) stuck.set(e.stream, { hung: e });
        continue;
      }
      if (!s.probe) {
        s.probe = e;
        continue;
      }
      const { hung, probe } = s;
      causes.offend(String(hung.n), e, () => ({
        message: `${quote(e)} is sent on MCP stream ${e.stream} after ${quote(hung)} got no answer there (${hung.fault?.kind}) and ${quote(probe)} got none either; the driver answers one request at a time, so nothing sent there is ever answered: start a new \`cua-driver mcp\` process`,
        requests: [hung, probe, e],
      }));
    }
    return causes.violations();
  },
};
