import type { RequestEntry } from "#src/schema/replay-log.js";
import { isRebuild, quote } from "./classify.js";
import { causeTracker } from "./evidence.js";
import type { Invariant } from "./types.js";

/** An answer this late is a stall, whatever caused it (the field saw 62 s per call after one). */
export const LATE_ANSWER_MS = 30_000;

/** Late answers allowed after the first before the harness must rebuild or stop. */
export const MAX_LATE_AFTER_STALL = 3;

// A stall of a second or two is latency a harness lives with, not a wedged driver.
function isLate(r: RequestEntry): boolean {
  const stalledMs = r.fault?.kind === "stall" ? Number(r.fault.params?.ms ?? LATE_ANSWER_MS) : 0;
  return stalledMs >= LATE_ANSWER_MS || (r.duration_ms ?? 0) >= LATE_ANSWER_MS;
}

// After a stall every call on the wedged driver comes back a minute late; a harness that keeps
// calling burns its whole budget waiting. Waits stay bounded: a few late answers, then a rebuild.
export const boundedWaitsAfterStall: Invariant = {
  id: "bounded-waits-after-stall",
  statement: `After an answer that came ${LATE_ANSWER_MS / 1000} s or more late (a stall that long, or a slow answer), at most ${MAX_LATE_AFTER_STALL} more late answers follow before the harness rebuilds (start_session, or a new \`cua-driver mcp\` process) or stops: no unbounded chain of waits.`,
  check(entries) {
    const causes = causeTracker("bounded-waits-after-stall");
    let chain: { first: RequestEntry; late: number } | undefined;
    const reset = () => {
      if (chain) causes.close(String(chain.first.n));
      chain = undefined;
    };
    for (const e of entries) {
      if (e.type === "stream") {
        if (e.event === "open" && e.transport === "mcp" && chain && chain.first.stream !== e.stream) reset();
        continue;
      }
      if (e.type !== "request") continue;
      if (isRebuild(e)) {
        reset();
        continue;
      }
      if (!isLate(e)) {
        // answered on time: the stall is over
        reset();
        continue;
      }
      if (!chain) {
        chain = { first: e, late: 0 };
        continue;
      }
      chain.late++;
      const c = chain;
      if (c.late > MAX_LATE_AFTER_STALL) {
        causes.offend(String(c.first.n), e, () => ({
          message: `${quote(e)} is answer ${c.late + 1} in a row to come late since ${quote(c.first)} (${c.first.fault?.kind ?? "slow"}); the driver is wedged: rebuild the session (start_session, or a new \`cua-driver mcp\` process) instead of waiting on it again`,
          requests: [c.first, e],
        }));
      }
    }
    return causes.violations();
  },
};
