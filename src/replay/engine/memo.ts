import type { RequestEntry } from "#src/schema/replay-log.js";
import { createLru, type Lru } from "#src/util/lru.js";
import type { RecordedExchange } from "./exchanges.js";
import type { RecordedOutcome } from "./tool-result.js";

/**
 * What replays work out again and again from the same recording, kept once per preparation (its
 * exchanges share one memo; every engine and fuzz run over that preparation reuses it), within a
 * budget: an outcome keeps its answer alive, a summary is keyed by the served result.
 */
export interface ReplayMemo {
  outcomes: Lru<RecordedExchange, RecordedOutcome>;
  summaries: Lru<string, NonNullable<RequestEntry["result"]>>;
}

export function createReplayMemo(): ReplayMemo {
  return {
    outcomes: createLru<RecordedExchange, RecordedOutcome>({ maxWeight: 32 * 2 ** 20 }),
    summaries: createLru<string, NonNullable<RequestEntry["result"]>>({ maxWeight: 16 * 2 ** 20, maxEntries: 256 }),
  };
}
