import type { StoredBytes } from "#src/schema/bytes.js";
import type { CassetteEvent, CliEvent, HttpEvent, McpCloseEvent, McpLineEvent, McpOpenEvent, McpStderrEvent } from "#src/schema/cassette.js";
import { assertNever } from "#src/util/assert-never.js";
import { originOf, storedUtf8, type RecordedAnswer, type RecordedReading, type RecordedRequest } from "#src/wire/recorded.js";
import { cliRecorded } from "#src/transports/cli/wire/recorded.js";
import { mcpRecorded } from "#src/transports/mcp/wire/recorded.js";
import { httpRecorded } from "#src/transports/http/wire/recorded.js";
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
  /**
   * An exchange whose answer is read: a CLI or HTTP exchange with its request (one event holds
   * both), an MCP request once its response is paired (never, for one left unanswered).
   */
  whole?(exchange: RecordedExchange<P>): void;
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
          if (!visitor.request && !visitor.whole) return;
          const part = { event, place };
          const exchange: CliExchange<P> = { transport: "cli", seqs: [event.seq], origin: originOf(event), request: part, answer: part };
          visitor.request?.(exchange);
          visitor.whole?.(exchange);
          return;
        }
        case "http": {
          if (!visitor.request && !visitor.whole) return;
          const exchange: HttpExchange<P> = {
            transport: "http",
            seqs: [event.seq],
            origin: originOf(event),
            request: { event, place, message: readRpcMessage(text(event, "request.body")) },
            answer: { event, place },
          };
          visitor.request?.(exchange);
          visitor.whole?.(exchange);
          return;
        }
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
              visitor.whole?.(exchange);
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

/**
 * What each recorded transport knows about its exchanges, one entry per transport in its own folder
 * (`src/transports/<name>/wire/recorded.ts`), keyed by the transport's name: a transport added to
 * `RecordedTransport` without its entry fails the type-check here. The readers of recordings ask
 * these (through the functions below) and branch on no transport themselves.
 */
const BY_TRANSPORT: { readonly [T in RecordedTransport]: RecordedReading<ExchangeOn<T>, ExchangeOn<T>["request"]["event"]> } = {
  cli: cliRecorded,
  mcp: mcpRecorded,
  http: httpRecorded,
};

type ExchangeOn<T extends RecordedTransport> = Extract<RecordedExchange<unknown>, { transport: T }>;

/** The entry of an exchange's transport, typed for that exchange (a lookup: nothing is allocated). */
function readingOf<X extends RecordedExchange<unknown>>(exchange: X): RecordedReading<X, X["request"]["event"]> {
  return BY_TRANSPORT[exchange.transport] as unknown as RecordedReading<X, X["request"]["event"]>;
}

/** The tool a request calls: a CLI `call`, a JSON-RPC `tools/call`'s `params.name`; undefined for anything else. */
export function toolOf(exchange: RecordedExchange<unknown>): string | undefined {
  return readingOf(exchange).tool(exchange);
}

/** Whether the request is a tool call whose answer comes back: a CLI `call`, a `tools/call` (over MCP stdio, with an id). */
export function isToolCall(exchange: RecordedExchange<unknown>): boolean {
  return readingOf(exchange).isCall(exchange);
}

/** The name `inspect`'s summary counts the request under (`by_tool`); undefined when it is not counted. */
export function countedAs(exchange: RecordedExchange<unknown>): string | undefined {
  return readingOf(exchange).countedAs(exchange, exchange.origin);
}

/** The exit the request's own event records (a CLI call's exit code, `signal:NAME` when killed); undefined for others. */
export function exitOf(exchange: RecordedExchange<unknown>): string | undefined {
  return readingOf(exchange).exit(exchange);
}

/** The request in its encoding (argv and stdin, or a JSON-RPC message); undefined for an HTTP body that is no JSON object. */
export function requestOf(exchange: RecordedExchange<unknown>): RecordedRequest | undefined {
  return readingOf(exchange).request(exchange);
}

/** The answer in its encoding (a process's output and exit, or a JSON-RPC response as stored); undefined when none is recorded. */
export function answerOf(exchange: RecordedExchange<unknown>): RecordedAnswer | undefined {
  return exchange.answer ? readingOf(exchange).answerIn(exchange.answer.event) : undefined;
}

type EventOn<T extends RecordedTransport> = ExchangeOn<T>["request"]["event"];
type Ask<R> = <T extends RecordedTransport>(reading: RecordedReading<ExchangeOn<T>, EventOn<T>>, event: EventOn<T>) => R;

/** Asks the reading of an event's transport about the event; a stream's start, stderr or exit gets `otherwise`. */
function askAbout<R>(event: CassetteEvent, ask: Ask<R>, otherwise: R): R {
  switch (event.kind) {
    case "cli":
      return ask(BY_TRANSPORT.cli, event);
    case "http":
      return ask(BY_TRANSPORT.http, event);
    case "mcp":
      return ask(BY_TRANSPORT.mcp, event);
    case "mcp_open":
    case "mcp_stderr":
    case "mcp_close":
      return otherwise;
    default:
      return assertNever(event, "cassette event");
  }
}

const slimOf: Ask<CassetteEvent> = (reading, event) => reading.slim(event);
const answerHeld: Ask<RecordedAnswer> = (reading, event) => reading.answerIn(event);

/**
 * The little of an event that tells whether it is a tool call and pairs an MCP answer with its
 * request (`isToolCall`): kind, seq, argv, an HTTP body's method, an MCP line's id and method. A
 * prune of a large cassette keeps these in memory, not the answers.
 */
export function slimEvent(event: CassetteEvent): CassetteEvent {
  return askAbout(event, slimOf, event);
}

/**
 * The answer an event holds, read on its own (a call's answer read again from its place in the
 * file): a CLI or HTTP event's, an MCP line's as a response; undefined for a stream's start, stderr or exit.
 */
export function answerIn(event: CassetteEvent): RecordedAnswer | undefined {
  return askAbout<RecordedAnswer | undefined>(event, answerHeld, undefined);
}

/** The transport an event was recorded on. */
export function transportOf(event: Pick<CassetteEvent, "kind">): RecordedTransport {
  const kind = event.kind;
  switch (kind) {
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
      return assertNever(kind, "cassette event kind");
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

/** Stored bytes as text: a string as it is, base64 decoded as UTF-8. */
export function storedText(event: McpLineEvent | HttpEvent, field: "line" | "request.body"): string {
  const stored = field === "line" ? (event as McpLineEvent).line : (event as HttpEvent).request.body;
  return typeof stored === "string" ? stored : storedUtf8(stored);
}
