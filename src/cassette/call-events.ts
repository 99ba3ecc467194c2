import type { CassetteEvent } from "#src/schema/cassette.js";
import { createExchangeReader, isToolCall } from "./exchanges/index.js";

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
  let call: number | undefined;
  const reader = createExchangeReader({
    request(x) {
      if (!isToolCall(x)) return;
      // an MCP call's seqs grow by its answer's when it is read
      spans.push({ seq: (call = x.request.event.seq), seqs: x.seqs });
    },
    answer(x) {
      // the answer of a call read before: the event belongs to that call
      if (isToolCall(x)) call = x.request.event.seq;
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
