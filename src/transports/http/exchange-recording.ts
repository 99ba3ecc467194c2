import { placeholderFor } from "#src/cassette/redact.js";
import { storeText } from "#src/cassette/store-text.js";
import { learnFromToolCall, learnFromToolResult, parseMcpMessage } from "#src/transports/mcp/secrets.js";
import { eventTime, type RecordingParts } from "#src/transports/recording/recording-parts.js";

/** One MCP-over-HTTP request and its answer, as the proxy saw them. */
export interface HttpExchange {
  /** Milliseconds since the recording started, when the request arrived. */
  startMs: number;
  durationMs: number;
  method: string;
  path: string;
  requestBody: Buffer;
  status: number;
  contentType?: string;
  responseBody: Buffer;
}

/**
 * Appends one `http` event: bodies redacted as on the other transports (secrets learned from the
 * request before its answer is stored), images moved to frames. The bearer tokens seen on the
 * wire are replaced in every stored text even with redaction off: a token never reaches disk.
 */
export function recordHttpExchange(options: RecordingParts & { exchange: HttpExchange; tokens: ReadonlySet<string> }): number {
  const { sink, redactor, exchange: x } = options;
  const scrub = (text: string): string => {
    let out = text;
    for (const token of options.tokens) if (token.length > 0) out = out.split(token).join(placeholderFor("bearer", token));
    return out;
  };
  const requestText = x.requestBody.toString("utf8");
  const tool = learnFromRequest(redactor, requestText);
  learnFromResponse(redactor, tool, x.responseBody.toString("utf8"));
  const field = (bytes: Buffer, name: string) => {
    const raw = toText(bytes);
    return storeText({ bytes: typeof raw === "string" ? scrub(raw) : bytes, field: name, redactor, putFrame: sink.putFrame });
  };
  const request = field(x.requestBody, "request.body");
  const response = field(x.responseBody, "response.body");
  const frames = [...request.splices, ...response.splices];
  return sink.append({
    kind: "http",
    t_ms: eventTime(x.startMs),
    duration_ms: eventTime(x.durationMs),
    request: { method: x.method, path: scrub(redactor.text(x.path)), body: request.stored },
    response: { status: x.status, ...(x.contentType !== undefined ? { content_type: x.contentType } : {}), body: response.stored },
    ...(frames.length ? { frames } : {}),
    origin: "harness",
  });
}

// Valid UTF-8 as a string (so the token can be scrubbed), otherwise the bytes as they are.
function toText(bytes: Buffer): string | Buffer {
  const text = bytes.toString("utf8");
  return Buffer.from(text, "utf8").equals(bytes) ? text : bytes;
}

function learnFromRequest(redactor: RecordingParts["redactor"], text: string): string | undefined {
  if (!redactor.enabled) return undefined;
  const m = parseMcpMessage(text);
  return m ? learnFromToolCall(redactor, m) : undefined;
}

function learnFromResponse(redactor: RecordingParts["redactor"], tool: string | undefined, text: string): void {
  if (!redactor.enabled || tool === undefined) return;
  const m = parseMcpMessage(text);
  if (m) learnFromToolResult(redactor, tool, m);
}
