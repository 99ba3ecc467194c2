import type { RequestEntry } from "#src/schema/replay-log.js";
import { isDeclaredObservation, isFreshObservation, isMutation, outcomeOf, quote, timelineOf } from "./classify.js";
import { causeTracker } from "./evidence.js";
import type { Invariant } from "./types.js";

/** The same look twice: the same tool with the same arguments. */
function lookKey(r: RequestEntry): string {
  return `${r.tool ?? ""} ${JSON.stringify(r.args ?? {})}`;
}

/**
 * The screen signature of a served look: the recorded answer it was served from (its `matched_seq`).
 * Two looks served from the same recorded answer showed the same screen byte for byte. A look
 * answered from an earlier epoch (`fallback_epoch`) is no evidence: the recording simply has no
 * newer one, the screen may well have changed.
 */
function signature(r: RequestEntry): number | undefined {
  if (r.fallback_epoch !== undefined || r.matched_seq === undefined) return undefined;
  return r.matched_seq;
}

interface Unchanged {
  /** The mutation answered as delivered. */
  mutation: RequestEntry;
  /** The look after it that showed the same screen as the look before it. */
  look: RequestEntry;
  before: RequestEntry;
}

// A mutation answered "delivered" is not proof of effect: the field has clicks answered "✅ Clicked"
// while the screen did not change. When the look after a mutation shows the very screen the look
// before it showed, the action did nothing visible; a harness that goes on to a different action
// as though it had worked builds on a step that never happened.
export const noDoneOnUnchanged: Invariant = {
  id: "no-done-on-unchanged",
  statement:
    "A mutation answered as delivered whose next look shows the screen unchanged (the same screen signature as the look before it) is not taken as done: the harness sends no different mutation until a fresh look shows a change (or it declares a look of its own); retrying or escalating the same action is allowed.",
  check(entries) {
    const causes = causeTracker("no-done-on-unchanged");
    /** The latest look per key, with its signature. */
    const looks = new Map<string, RequestEntry>();
    let pending: RequestEntry | undefined;
    let unchanged: Unchanged | undefined;
    const clear = () => {
      if (unchanged) causes.close(String(unchanged.mutation.n));
      unchanged = undefined;
    };
    for (const e of timelineOf(entries)) {
      if (isDeclaredObservation(e)) {
        // the harness looked by its own means: its decision rests on that look
        clear();
        pending = undefined;
        continue;
      }
      if (e.type !== "request") continue;
      if (isFreshObservation(e)) {
        const key = lookKey(e);
        const previous = looks.get(key);
        const sig = signature(e);
        if (pending && previous && previous.n < pending.n && sig !== undefined && signature(previous) === sig) {
          unchanged = { mutation: pending, look: e, before: previous };
        } else if (unchanged && sig !== undefined && sig !== signature(unchanged.look)) {
          // a fresh look shows a change after all
          clear();
        }
        if (pending && previous?.n !== undefined && previous.n < pending.n) pending = undefined;
        looks.set(key, e);
        continue;
      }
      if (!isMutation(e)) continue;
      const u = unchanged;
      if (u && e.tool !== u.mutation.tool) {
        causes.offend(String(u.mutation.n), e, () => ({
          message: `${quote(e)} goes on after ${quote(u.mutation)} was answered as delivered while ${quote(u.look)} showed the screen unchanged since ${quote(u.before)}; the action did nothing visible: look again, or retry it by another route, before building on it`,
          requests: [u.mutation, u.before, u.look, e],
        }));
        continue;
      }
      if (u && e.tool === u.mutation.tool) clear();
      // a mutation the replay answered off the recorded path (sent again, skipped ahead) changes nothing by construction: no evidence
      pending = outcomeOf(e) === "done" && e.synthesized === undefined ? e : undefined;
    }
    return causes.violations();
  },
};
