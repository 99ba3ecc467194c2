import { scanCassette, schemaValidators, type Cassette, type CassetteScan } from "#src/cassette/index.js";
import { messageOfBody } from "#src/transports/http/wire/event-stream.js";
import type { CassetteEvent } from "#src/schema/cassette.js";
import { answerOf, createExchangeReader, requestOf } from "#src/cassette/exchanges/index.js";
import { eventText, isObject, jsonOrUndefined, storedString } from "./event-json.js";

type Found = { result: unknown; line: number };

/**
 * The result of the first `tools/list` answered in a cassette's MCP or HTTP traffic: what diff
 * compares when a cassette has no probe.json (recorded before probing, or with --no-probe).
 */
export function recordedToolsList(cassette: Cassette): Found | undefined {
  const finder = toolsListFinder();
  for (const [index, event] of cassette.events.entries()) {
    const found = finder(event, cassette.lines[index] ?? 0);
    if (found) return found;
  }
  return undefined;
}

/** The same from a cassette directory read line by line (the whole file is still validated; no event is kept). */
export function scanRecordedToolsList(dir: string): { found?: Found; scan: CassetteScan } {
  const finder = toolsListFinder();
  let found: Found | undefined;
  const scan = scanCassette({ dir, validators: schemaValidators, frames: "skip", onEvent: (event, place) => (found ??= finder(event, place.line)) });
  return { ...(found ? { found } : {}), scan };
}

function toolsListFinder(): (event: CassetteEvent, line: number) => Found | undefined {
  let found: Found | undefined;
  const reader = createExchangeReader<number>(
    {
      whole(x) {
        const request = requestOf(x);
        if (!x.answer || request?.form !== "rpc" || request.message.method !== "tools/list") return;
        const answer = answerOf(x);
        if (answer?.form !== "rpc") return;
        const res = jsonOrUndefined(messageOfBody(storedString(answer.body)));
        if (isObject(res) && isObject(res.result)) found = { result: res.result, line: x.answer.place };
      },
    },
    { text: eventText },
  );
  return (event, line) => {
    reader.add(event, line);
    return found;
  };
}
