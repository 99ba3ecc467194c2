import { objectSpans, spliceSpan, valueEnd } from "#src/wire/json/spans.js";
import { serdeString } from "#src/wire/json/string.js";

/**
 * cua-driver's JSON-RPC envelope, a typed struct and so in declaration order, not sorted:
 * `jsonrpc, id, result|error`, and `{code, message}` inside an error (docs/reference/cua-driver-contract.md §0.4). `idRaw`
 * is the request's id as JSON text, written back as it came.
 */
export function resultLine(idRaw: string, rawResult: string): string {
  return `{"jsonrpc":"2.0","id":${idRaw},"result":${rawResult}}`;
}

export function errorLine(idRaw: string | undefined, code: number, message: string): string {
  return `{"jsonrpc":"2.0","id":${idRaw ?? "null"},"error":{"code":${code},"message":${serdeString(message)}}}`;
}

/** A recorded response line with its id swapped for this request's, every other byte kept. */
export function withId(line: string, idRaw: string): string {
  // fast path: cua-driver's own envelope order puts the id right after "jsonrpc"
  if (line.startsWith(ENVELOPE_START)) {
    const end = valueEnd(line, ENVELOPE_START.length);
    return ENVELOPE_START + idRaw + line.slice(end);
  }
  const span = objectSpans(line).get("id");
  return span ? spliceSpan(line, span, idRaw) : line;
}

const ENVELOPE_START = '{"jsonrpc":"2.0","id":';

/** The answer to a line that is not a JSON-RPC request. */
export const PARSE_ERROR_LINE = errorLine(undefined, -32700, "Parse error");
