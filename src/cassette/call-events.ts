import type { CassetteEvent } from "#src/schema/cassette.js";
import { parseDriverArgv } from "#src/transports/cli/wire/argv.js";
import { assertNever } from "#src/util/assert-never.js";
import { createExchangeReader, type McpExchange } from "./exchanges/index.js";

/** A tool call: the seq of its request and every seq it spans (an MCP call's grows when its answer is read). */
export interface ToolCallSpan {
  seq: number;
  seqs: number[];
}

/**
 * The tool calls of a cassette, read one event at a time in file order: a CLI `call` (one event),
 * an HTTP `tools/call` (one event), an MCP `tools/call` request and the response with its id on the
 * same stream. Everything else (identity, `tools/list`, `initialize`, stream open/close) is not a
 * call. `add` says which call the event belongs to (the seq of its request) as soon as it is read,
 * or undefined; `spans` holds the calls read so far with the seqs each spans.
 */
export function toolCallTracker(): { add(e: CassetteEvent): number | undefined; spans: ToolCallSpan[] } {
  const spans: ToolCallSpan[] = [];
  // MCP calls whose answer is still to come
  const open = new Set<McpExchange>();
  let call: number | undefined;
  const reader = createExchangeReader({
    request(x) {
      switch (x.transport) {
        case "cli":
          if (parseDriverArgv(x.request.event.argv).subcommand === "call") spans.push({ seq: (call = x.seqs[0]), seqs: x.seqs });
          return;
        case "http":
          if (x.request.message?.method === "tools/call") spans.push({ seq: (call = x.seqs[0]), seqs: x.seqs });
          return;
        case "mcp":
          // the seqs grow by the answer's when it is read
          if (x.request.message.method === "tools/call" && x.request.message.idRaw !== undefined) {
            spans.push({ seq: (call = x.request.event.seq), seqs: x.seqs });
            open.add(x);
          }
          return;
        default:
          assertNever(x, "recorded exchange");
      }
    },
    answer(x) {
      if (open.delete(x)) call = x.request.event.seq;
    },
  });
  return {
    spans,
    add(e) {
      call = undefined;
      reader.add(e, undefined);
      return call;
    },
  };
}
