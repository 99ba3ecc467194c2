import type { CassetteEvent } from "#src/schema/cassette.js";
import { storedTextsOf } from "#src/cassette/exchanges/index.js";
import { collectIds, emptyIdSets, type IdKind } from "./id-json.js";

/** Every pid, window id and snapshot id a cassette names anywhere (requests, answers, text). */
export function cassetteIds(events: readonly CassetteEvent[]): Record<IdKind, Set<string>> {
  const ids = emptyIdSets();
  for (const e of events) {
    // text only: bytes stored as base64 are not the driver's JSON
    for (const bytes of storedTextsOf(e)) if (typeof bytes === "string" && bytes.length > 0) collectIds(bytes, ids);
  }
  return ids;
}
