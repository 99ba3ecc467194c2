import type { RequestEntry } from "#src/schema/replay-log.js";
import { createLru } from "#src/util/lru.js";
import type { RecordedExchange, RecordedOutcome, ReplayMemo } from "./recorded-exchange.js";

export type { ReplayMemo } from "./recorded-exchange.js";

export function createReplayMemo(): ReplayMemo {
  return {
    outcomes: createLru<RecordedExchange, RecordedOutcome>({ maxWeight: 32 * 2 ** 20 }),
    summaries: createLru<string, NonNullable<RequestEntry["result"]>>({ maxWeight: 16 * 2 ** 20, maxEntries: 256 }),
  };
}
