import type { CassetteEvent } from "#src/schema/cassette.js";
import { parseDriverArgv } from "#src/wire/cli/argv.js";
import { fromStoredBytes } from "./stored-bytes.js";
import type { StoredBytes } from "#src/schema/bytes.js";

const text = (s: StoredBytes) => fromStoredBytes(s).toString("utf8");

function rpc(s: StoredBytes): { id?: unknown; method?: unknown } | undefined {
  try {
    const m = JSON.parse(text(s)) as unknown;
    return typeof m === "object" && m !== null && !Array.isArray(m) ? (m as { id?: unknown; method?: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The tool calls of a cassette, each with the seqs it spans: a CLI `call` (one event), an HTTP
 * `tools/call` (one event), an MCP `tools/call` request and the response with its id on the same
 * stream. Everything else (identity, `tools/list`, `initialize`, stream open/close) is not a call.
 */
export function toolCallSpans(events: readonly CassetteEvent[]): { seq: number; seqs: number[] }[] {
  const spans: { seq: number; seqs: number[] }[] = [];
  const open = new Map<string, { seq: number; seqs: number[] }>();
  for (const e of events) {
    if (e.kind === "cli") {
      if (parseDriverArgv(e.argv).subcommand === "call") spans.push({ seq: e.seq, seqs: [e.seq] });
    } else if (e.kind === "http") {
      if (rpc(e.request.body)?.method === "tools/call") spans.push({ seq: e.seq, seqs: [e.seq] });
    } else if (e.kind === "mcp") {
      const m = rpc(e.line);
      if (!m || m.id === undefined) continue;
      const key = `${e.stream}:${JSON.stringify(m.id)}`;
      if (e.dir === "c2s" && m.method === "tools/call") {
        const span = { seq: e.seq, seqs: [e.seq] };
        spans.push(span);
        open.set(key, span);
      } else if (e.dir === "s2c" && m.method === undefined) {
        const span = open.get(key);
        if (span) {
          span.seqs.push(e.seq);
          open.delete(key);
        }
      }
    }
  }
  return spans;
}
