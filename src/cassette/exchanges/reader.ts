import type { StoredBytes } from "#src/schema/bytes.js";
import type { CassetteEvent, CliEvent, HttpEvent, McpCloseEvent, McpLineEvent, McpOpenEvent, McpStderrEvent } from "#src/schema/cassette.js";
import { assertNever } from "#src/util/assert-never.js";
import { parseDriverArgv } from "#src/transports/cli/wire/argv.js";
import { idKey, readRpcMessage, type RpcMessage } from "./rpc-message.js";

/** The transports a cassette records: per-call CLI, MCP over stdio, MCP over HTTP. */
export type RecordedTransport = "cli" | "mcp" | "http";

/** What an MCP stream recorded besides its lines: the process starting, writing to stderr, exiting. */
export type McpStreamEvent = McpOpenEvent | McpStderrEvent | McpCloseEvent;

type Origin = "harness" | "recorder";

/** A per-call CLI invocation: one event is both the request (argv, stdin) and the answer (stdout, stderr, exit). */
export interface CliExchange<P = undefined> {
  transport: "cli";
  seqs: [number];
  origin: Origin;
  request: { event: CliEvent; place: P };
  answer: { event: CliEvent; place: P };
}

/** An MCP line sent to the driver and the response line carrying its id on the same stream. */
export interface McpExchange<P = undefined> {
  transport: "mcp";
  stream: number;
  /** The request's seq, then the answer's once it is read. */
  seqs: number[];
  origin: Origin;
  request: { event: McpLineEvent; place: P; message: RpcMessage };
  /**
   * The response: absent for a notification (no id), and where the recording holds none — a
   * request the driver never answered, or (while reading) one whose answer is further on.
   */
  answer?: { event: McpLineEvent; place: P; message: RpcMessage };
}

/** One MCP-over-HTTP exchange: one event holds the request body and the response. */
export interface HttpExchange<P = undefined> {
  transport: "http";
  seqs: [number];
  origin: Origin;
  /** The body's message; undefined when the body is not a JSON object. */
  request: { event: HttpEvent; place: P; message: RpcMessage | undefined };
  answer: { event: HttpEvent; place: P };
}

/** One recorded request and its answer, on whichever transport it was recorded. */
export type RecordedExchange<P = undefined> = CliExchange<P> | McpExchange<P> | HttpExchange<P>;

/** An MCP line that is neither a request nor the answer to one read before it. */
export interface OtherLine<P = undefined> {
  event: McpLineEvent;
  place: P;
  /**
   * Undefined when the line is not a JSON object. Otherwise a response no request on its stream
   * asked for, a message the driver sent on its own, or (sent to the driver) a reply with no method.
   */
  message: RpcMessage | undefined;
}

/** What a reading is told, in the order of the events. Every member is optional. */
export interface ExchangeVisitor<P = undefined> {
  /** A request: a CLI or HTTP exchange whole; an MCP request line, whose answer comes to `answer` if recorded. */
  request?(exchange: RecordedExchange<P>): void;
  /** An MCP response, now the `answer` of the request it pairs with. */
  answer?(exchange: McpExchange<P>): void;
  /** An MCP stream started, wrote to stderr or exited. */
  stream?(event: McpStreamEvent, place: P): void;
  other?(line: OtherLine<P>): void;
}

export interface ReadOptions {
  /**
   * The text of an MCP line or an HTTP request body, as the caller reads it (its frames put back
   * or not). By default the stored text, base64 decoded as UTF-8; frames are left out either way
   * (they sit inside JSON strings and change no id, method or tool).
   */
  text?(event: McpLineEvent | HttpEvent, field: "line" | "request.body"): string;
  /**
   * `false`: a reading that needs only the requests (counts, tools) leaves the driver's MCP lines
   * unread — a long answer is not even scanned — so no MCP request gets an answer or waits for one
   * (none is kept); `other` is told of those lines with no message.
   */
  answers?: false;
}

export interface ExchangeReader<P = undefined> {
  /** Reads the next event of the cassette, in file order. */
  add(event: CassetteEvent, place: P): void;
  /** The MCP requests read so far that wait for an answer. */
  waiting(): McpExchange<P>[];
}

/**
 * The one reader of recorded exchanges. An MCP request (a line sent to the driver with a method)
 * pairs with the first response after it (an id and no method) whose id has the same JSON value on
 * the same stream; a later request with the same id on that stream takes the pairing over. A
 * notification (no id) is a request with no answer.
 */
export function createExchangeReader<P = undefined>(visitor: ExchangeVisitor<P>, options: ReadOptions = {}): ExchangeReader<P> {
  const text = options.text ?? storedText;
  const waiting = new Map<string, McpExchange<P>>();
  return {
    add(event, place) {
      switch (event.kind) {
        case "cli": {
          if (!visitor.request) return;
          const part = { event, place };
          visitor.request({ transport: "cli", seqs: [event.seq], origin: originOf(event), request: part, answer: part });
          return;
        }
        case "http":
          visitor.request?.({
            transport: "http",
            seqs: [event.seq],
            origin: originOf(event),
            request: { event, place, message: readRpcMessage(text(event, "request.body")) },
            answer: { event, place },
          });
          return;
        case "mcp": {
          if (event.dir === "s2c" && options.answers === false) {
            visitor.other?.({ event, place, message: undefined });
            return;
          }
          const message = readRpcMessage(text(event, "line"));
          if (message && event.dir === "c2s" && message.method !== undefined) {
            const exchange: McpExchange<P> = {
              transport: "mcp",
              stream: event.stream,
              seqs: [event.seq],
              origin: originOf(event),
              request: { event, place, message },
            };
            // with no answers to read, nothing waits (and nothing is kept)
            if (message.idRaw !== undefined && options.answers !== false) waiting.set(`${event.stream}:${idKey(message.idRaw)}`, exchange);
            visitor.request?.(exchange);
            return;
          }
          if (message && event.dir === "s2c" && message.isResponse) {
            const key = `${event.stream}:${idKey(message.idRaw!)}`;
            const exchange = waiting.get(key);
            if (exchange) {
              waiting.delete(key);
              exchange.answer = { event, place, message };
              exchange.seqs.push(event.seq);
              visitor.answer?.(exchange);
              return;
            }
          }
          visitor.other?.({ event, place, message });
          return;
        }
        case "mcp_open":
        case "mcp_stderr":
        case "mcp_close":
          visitor.stream?.(event, place);
          return;
        default:
          assertNever(event, "cassette event");
      }
    },
    waiting: () => [...waiting.values()],
  };
}

/** Every exchange of these events, in the order of their requests, each with its answer when the recording has one. */
export function readExchanges(events: Iterable<CassetteEvent>, options: ReadOptions = {}): RecordedExchange[] {
  const out: RecordedExchange[] = [];
  const reader = createExchangeReader<undefined>({ request: (x) => out.push(x) }, options);
  for (const event of events) reader.add(event, undefined);
  return out;
}

/** The tool a request calls: a CLI `call`, a JSON-RPC `tools/call`'s `params.name`; undefined for anything else. */
export function toolOf(exchange: RecordedExchange<unknown>): string | undefined {
  switch (exchange.transport) {
    case "cli":
      return parseDriverArgv(exchange.request.event.argv).tool;
    case "mcp":
      return exchange.request.message.tool;
    case "http":
      return exchange.request.message?.tool;
    default:
      return assertNever(exchange, "recorded exchange");
  }
}

/** The transport an event was recorded on. */
export function transportOf(event: CassetteEvent): RecordedTransport {
  switch (event.kind) {
    case "cli":
      return "cli";
    case "http":
      return "http";
    case "mcp":
    case "mcp_open":
    case "mcp_stderr":
    case "mcp_close":
      return "mcp";
    default:
      return assertNever(event, "cassette event");
  }
}

/** Every stored text an event holds (argv, stdin, stdout, stderr, lines, bodies), in that order. */
export function storedTextsOf(event: CassetteEvent): StoredBytes[] {
  switch (event.kind) {
    case "cli":
      return [...event.argv, ...(event.stdin !== undefined ? [event.stdin] : []), event.stdout, event.stderr];
    case "http":
      return [event.request.body, event.response.body];
    case "mcp":
      return [event.line];
    case "mcp_stderr":
      return [event.data];
    case "mcp_open":
    case "mcp_close":
      return [];
    default:
      return assertNever(event, "cassette event");
  }
}

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** Stored bytes as text: a string as it is, base64 decoded as UTF-8. */
export function storedText(event: McpLineEvent | HttpEvent, field: "line" | "request.body"): string {
  const stored = field === "line" ? (event as McpLineEvent).line : (event as HttpEvent).request.body;
  if (typeof stored === "string") return stored;
  return utf8.decode(Uint8Array.from(atob(stored.data), (c) => c.charCodeAt(0)));
}

function originOf(event: { origin?: Origin | undefined }): Origin {
  return event.origin === "recorder" ? "recorder" : "harness";
}
