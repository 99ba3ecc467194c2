import { scanCassette, schemaValidators, type Cassette, type CassetteScan } from "#src/cassette/index.js";
import type { CassetteEvent } from "#src/schema/cassette.js";
import { eventText, isObject, jsonOrUndefined } from "./event-json.js";

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
  const asked = new Set<string>();
  return (event, line) => {
    if (event.kind === "mcp") {
      const msg = jsonOrUndefined(eventText(event, "line"));
      if (!isObject(msg)) return undefined;
      const key = `${event.stream}:${JSON.stringify(msg.id)}`;
      if (event.dir === "c2s" && msg.method === "tools/list") asked.add(key);
      else if (event.dir === "s2c" && asked.has(key) && isObject(msg.result)) return { result: msg.result, line };
    } else if (event.kind === "http") {
      const req = jsonOrUndefined(eventText(event, "request.body"));
      if (!isObject(req) || req.method !== "tools/list") return undefined;
      const res = jsonOrUndefined(sseData(eventText(event, "response.body")));
      if (isObject(res) && isObject(res.result)) return { result: res.result, line };
    }
    return undefined;
  };
}

/** An HTTP answer may be an SSE stream: its first `data:` line holds the JSON-RPC message. */
function sseData(body: string): string {
  const data = /^data: ?(.*)$/m.exec(body);
  return data ? data[1]! : body;
}
