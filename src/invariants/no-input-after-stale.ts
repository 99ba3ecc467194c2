import type { RequestEntry } from "#src/schema/replay-log.js";
import { STALE_CODES, isFreshObservation, isInput, quote } from "./classify.js";
import { violation } from "./evidence.js";
import type { Invariant, Violation } from "./types.js";

/** A `mark` entry with this label starts a new batch (one model turn's worth of actions). */
export const BATCH_MARK = "batch";

/** The refusal code when `r` was refused as stale, else undefined. */
function staleCode(r: RequestEntry, extra: readonly string[]): string | undefined {
  const code = r.result?.refusal_code ?? (r.fault?.kind === "refusal" ? r.fault.params?.code : undefined);
  if (typeof code !== "string") return undefined;
  return STALE_CODES.includes(code) || extra.includes(code) || code.includes("stale") ? code : undefined;
}

// A stale refusal means the harness's picture of the screen is out of date; acting again on the
// same picture aims at the wrong thing.
export const noInputAfterStale: Invariant = {
  id: "no-input-after-stale",
  statement:
    "After an input is refused as stale (stale frame or element token), no input call follows in the same batch without a new look at the window (a window list is not one).",
  check(entries, options) {
    const out: Violation[] = [];
    let stale: { request: RequestEntry; code: string } | undefined;
    for (const e of entries) {
      if (e.type === "mark" && e.label === BATCH_MARK) stale = undefined;
      if (e.type !== "request") continue;
      // a window list names no elements and shows no pixels: only a look at the window refreshes the target
      if (isFreshObservation(e) && e.tool !== "list_windows") stale = undefined;
      else if (stale && isInput(e)) {
        out.push(
          violation(
            "no-input-after-stale",
            `${quote(e)} sends input after ${quote(stale.request)} was refused as stale (${stale.code}), in the same batch and without a new observation`,
            [stale.request, e],
          ),
        );
        stale = undefined;
      }
      // Only a refused input says the harness aimed at something out of date; a read has no target to be stale.
      const code = isInput(e) ? staleCode(e, options.staleCodes ?? []) : undefined;
      if (code) stale = { request: e, code };
    }
    return out;
  },
};
