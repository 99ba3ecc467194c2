import type { CassetteEvent } from "#src/schema/cassette.js";
import { parseDriverArgv } from "#src/transports/cli/wire/argv.js";
import { assertNever } from "#src/util/assert-never.js";
import { createExchangeReader } from "./exchanges/index.js";

/**
 * The tool calls of a cassette, each with the seqs it spans: a CLI `call` (one event), an HTTP
 * `tools/call` (one event), an MCP `tools/call` request and the response with its id on the same
 * stream. Everything else (identity, `tools/list`, `initialize`, stream open/close) is not a call.
 */
export function toolCallSpans(events: readonly CassetteEvent[]): { seq: number; seqs: number[] }[] {
  const spans: { seq: number; seqs: number[] }[] = [];
  const reader = createExchangeReader({
    request(x) {
      switch (x.transport) {
        case "cli":
          if (parseDriverArgv(x.request.event.argv).subcommand === "call") spans.push({ seq: x.seqs[0], seqs: x.seqs });
          return;
        case "http":
          if (x.request.message?.method === "tools/call") spans.push({ seq: x.seqs[0], seqs: x.seqs });
          return;
        case "mcp":
          // the seqs grow by the answer's when it is read
          if (x.request.message.method === "tools/call" && x.request.message.idRaw !== undefined) spans.push({ seq: x.request.event.seq, seqs: x.seqs });
          return;
        default:
          assertNever(x, "recorded exchange");
      }
    },
  });
  for (const e of events) reader.add(e, undefined);
  return spans;
}
