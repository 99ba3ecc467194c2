import type { RequestEntry } from "#src/schema/replay-log.js";
import { isDiscovery, requestKey } from "./canonical.js";
import { outcomeOf, quote, refusalCodeOf, requestsOf } from "./classify.js";
import { causeTracker } from "./evidence.js";
import type { Invariant } from "./types.js";

export const DEFAULT_MAX_REPEATS = 6;

/**
 * What an answer that shows no progress looks like: the driver refused (with this code), the call
 * failed the same way, never reached the driver or was lost, or the input most likely did not land
 * (`suspected_noop`). Undefined when the driver answered and acted: repeating accepted input (a list
 * walked with Down, a game) is ordinary use.
 */
function noProgress(r: RequestEntry): string | undefined {
  const outcome = outcomeOf(r);
  if (outcome === "done") return r.result?.effect === "suspected_noop" ? "suspected_noop" : undefined;
  return `${outcome} ${refusalCodeOf(r) ?? r.fault?.kind ?? (r.result?.exit_code !== undefined ? `exit ${r.result.exit_code}` : "")}`.trim();
}

/** 1st, 2nd, 3rd, 4th, …, 11th, 12th, 13th, 21st. */
function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
}

function describeStall(sig: string): string {
  const [outcome, ...rest] = sig.split(" ");
  const why = rest.length > 0 ? ` (${rest.join(" ")})` : "";
  if (outcome === "suspected_noop") return "each answered suspected_noop";
  if (outcome === "refused") return `each refused${why}`;
  if (outcome === "not_reached") return `none reached the driver${why}`;
  return `each without an answer${why}`;
}

// A harness stuck in a loop burns the budget and, for mutations, repeats input that does nothing.
export const boundedRetries: Invariant = {
  id: "bounded-retries",
  statement: `No request is sent more than N times in a row with the same method, tool and arguments while every answer shows no progress — refused with the same code, the same error, not reached or lost, or suspected_noop (N = maxRepeats, default ${DEFAULT_MAX_REPEATS}); discovery requests are not retries. With maxIdentical set, also no more than that many identical requests in a row whatever the answers.`,
  check(entries, options) {
    const max = options.maxRepeats ?? DEFAULT_MAX_REPEATS;
    const causes = causeTracker("bounded-retries");
    let stalled: RequestEntry[] = [];
    let stalledKey = "";
    let identical: RequestEntry[] = [];
    let identicalKey = "";
    for (const r of requestsOf(entries)) {
      // asking the driver what it is (initialize, tools/list, --version, …) is never a retry
      if (isDiscovery(r)) continue;
      const key = requestKey(r);
      const sig = noProgress(r);
      const stallKey = sig === undefined ? "" : `${key}\n${sig}`;
      if (stallKey !== "" && stallKey === stalledKey) stalled.push(r);
      else {
        if (stalled.length > 0) causes.close(`stall ${stalled[0]!.n}`);
        stalled = stallKey === "" ? [] : [r];
        stalledKey = stallKey;
      }
      if (stalled.length > max) {
        const first = stalled[0] as RequestEntry;
        causes.offend(`stall ${first.n}`, r, () => ({
          message: `${quote(r)} is the ${ordinal(max + 1)} identical ${r.tool ?? r.method} call in a row (from #${first.n}), ${describeStall(sig ?? "")}; at most ${max} are allowed without progress`,
          requests: stalled,
        }));
      }
      if (options.maxIdentical === undefined) continue;
      if (key === identicalKey) identical.push(r);
      else {
        if (identical.length > 0) causes.close(`identical ${identical[0]!.n}`);
        identical = [r];
        identicalKey = key;
      }
      if (identical.length > options.maxIdentical) {
        const first = identical[0] as RequestEntry;
        const limit = options.maxIdentical;
        causes.offend(`identical ${first.n}`, r, () => ({
          message: `${quote(r)} is the ${ordinal(limit + 1)} identical ${r.tool ?? r.method} call in a row (from #${first.n}); the maxIdentical policy allows at most ${limit}, whatever the answers`,
          requests: identical,
        }));
      }
    }
    return causes.violations();
  },
};
