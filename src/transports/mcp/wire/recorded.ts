// How an MCP-over-stdio exchange reads from a recording: a request line sent to the driver and the
// response line carrying its id on the same stream (paired by the exchange reader, which keeps this
// entry under "mcp" in its record of transports).
import type { McpLineEvent } from "#src/schema/cassette.js";
import { originOf, storedUtf8, type RecordedReading, type RecordedRpc } from "#src/wire/recorded.js";

/** The part of a recorded MCP exchange its reading looks at. */
interface McpRecorded {
  request: { message: RecordedRpc };
}

export const mcpRecorded: RecordedReading<McpRecorded, McpLineEvent> = {
  tool: (x) => x.request.message.tool,
  isCall: ({ request: { message } }) => message.method === "tools/call" && message.idRaw !== undefined,
  // the stream's lines are counted whoever sent them
  countedAs: (x) => x.request.message.tool,
  // a stream's exit is its close event's, not a request's
  exit: () => undefined,
  request: (x) => ({ form: "rpc", message: x.request.message }),
  slim(e) {
    let message: { id?: unknown; method?: unknown } | null;
    try {
      message = JSON.parse(storedUtf8(e.line)) as typeof message;
    } catch {
      return { ...e, line: "" };
    }
    return { ...e, line: JSON.stringify({ id: message?.id, method: message?.method }) };
  },
  answerIn: (event) => ({ form: "rpc", body: event.line, status: undefined, origin: originOf(event) }),
};
