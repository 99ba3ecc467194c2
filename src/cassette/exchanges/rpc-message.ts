import { objectSpans, type Span } from "#src/wire/json/spans.js";

/**
 * One JSON-RPC message as recorded (an MCP line, an HTTP body): its text, its id and method read
 * by spans (a long answer is jumped over, not parsed), any other member parsed when first asked.
 */
export class RpcMessage {
  /** The id exactly as written (`1`, `"a"`, `null`); undefined when the message has none (a notification). */
  readonly idRaw: string | undefined;
  /** The method, when it is a string: the message is then a request or a notification. */
  readonly method: string | undefined;
  private parsed: Map<string, unknown> | undefined;

  constructor(
    readonly text: string,
    private readonly spans: Map<string, Span>,
  ) {
    const id = spans.get("id");
    this.idRaw = id ? text.slice(id.start, id.end) : undefined;
    const method = parseSpan(text, spans.get("method"));
    this.method = typeof method === "string" ? method : undefined;
  }

  /** A top-level member, parsed (undefined when absent or not JSON). */
  member(name: string): unknown {
    if (this.parsed?.has(name)) return this.parsed.get(name);
    const value = parseSpan(this.text, this.spans.get(name));
    (this.parsed ??= new Map()).set(name, value);
    return value;
  }

  /** Whether the message has this top-level member. */
  has(name: string): boolean {
    return this.spans.has(name);
  }

  /** `tools/call`'s tool: `params.name` when it is a string. */
  get tool(): string | undefined {
    if (this.method !== "tools/call") return undefined;
    const params = this.member("params");
    const name = typeof params === "object" && params !== null ? (params as { name?: unknown }).name : undefined;
    return typeof name === "string" ? name : undefined;
  }

  /** A response: an id and no method. */
  get isResponse(): boolean {
    return this.idRaw !== undefined && this.method === undefined;
  }
}

function parseSpan(text: string, span: Span | undefined): unknown {
  if (!span) return undefined;
  try {
    return JSON.parse(text.slice(span.start, span.end));
  } catch {
    return undefined;
  }
}

/** The message a line or body holds, undefined when it is not a JSON object. */
export function readRpcMessage(text: string): RpcMessage | undefined {
  try {
    return new RpcMessage(text, objectSpans(text));
  } catch {
    return undefined;
  }
}

/**
 * What pairs a response with its request: the id's JSON value, written one way (`1.0` and `1`,
 * `"\u0061"` and `"a"` are one id), as a client library compares them.
 */
export function idKey(idRaw: string): string {
  if (/^-?(?:0|[1-9]\d{0,14})$/.test(idRaw) || /^"[^"\\]*"$/.test(idRaw)) return idRaw;
  try {
    return JSON.stringify(JSON.parse(idRaw));
  } catch {
    return idRaw;
  }
}
