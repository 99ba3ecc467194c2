import type { RequestEntry } from "#src/schema/replay-log.js";
import { isDiscovery, requestKey } from "./canonical.js";
import { quote, requestsOf } from "./classify.js";
import { violation } from "./evidence.js";
import type { Invariant, Violation } from "./types.js";

export const DEFAULT_MAX_REPEATS = 6;

// A harness stuck in a loop burns the budget and, for mutations, repeats input on the screen.
export const boundedRetries: Invariant = {
  id: "bounded-retries",
  statement: `No request is sent more than N times in a row with the same method, tool and arguments (N = maxRepeats, default ${DEFAULT_MAX_REPEATS}); discovery requests are not retries.`,
  check(entries, options) {
    const max = options.maxRepeats ?? DEFAULT_MAX_REPEATS;
    const out: Violation[] = [];
    let run: RequestEntry[] = [];
    let key = "";
    for (const r of requestsOf(entries)) {
      // asking the driver what it is (initialize, tools/list, --version, …) is never a retry
      if (isDiscovery(r)) continue;
      const k = requestKey(r);
      if (k === key) run.push(r);
      else {
        key = k;
        run = [r];
      }
      if (run.length === max + 1) {
        const first = run[0] as RequestEntry;
        out.push(
          violation(
            "bounded-retries",
            `${quote(r)} is the ${max + 1}th identical ${r.tool ?? r.method} call in a row (from #${first.n}); at most ${max} are allowed`,
            run,
          ),
        );
      }
    }
    return out;
  },
};
