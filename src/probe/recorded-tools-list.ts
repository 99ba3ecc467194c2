import type { Cassette } from "../cassette/index.js";
import { eventText, isObject, jsonOrUndefined } from "./event-json.js";

/**
 * The result of the first `tools/list` answered in a cassette's MCP or HTTP traffic: what diff
 * compares when a cassette has no probe.json (recorded before probing, or with --no-probe).
 */
export function recordedToolsList(cassette: Cassette): { result: unknown; line: number } | undefined {
  const asked = new Set<string>();
  for (const [index, event] of cassette.events.entries()) {
    const line = cassette.lines[index] ?? 0;
    if (event.kind === "mcp") {
      const msg = jsonOrUndefined(eventText(event, "line"));
      if (!isObject(msg)) continue;
      const key = `${event.stream}:${JSON.stringify(msg.id)}`;
      if (event.dir === "c2s" && msg.method === "tools/list") asked.add(key);
      else if (event.dir === "s2c" && asked.has(key) && isObject(msg.result)) return { result: msg.result, line };
    } else if (event.kind === "http") {
      const req = jsonOrUndefined(eventText(event, "request.body"));
      if (!isObject(req) || req.method !== "tools/list") continue;
      const res = jsonOrUndefined(sseData(eventText(event, "response.body")));
      if (isObject(res) && isObject(res.result)) return { result: res.result, line };
    }
  }
  return undefined;
}

/** An HTTP answer may be an SSE stream: its first `data:` line holds the JSON-RPC message. */
function sseData(body: string): string {
  const data = /^data: ?(.*)$/m.exec(body);
  return data ? data[1]! : body;
}
