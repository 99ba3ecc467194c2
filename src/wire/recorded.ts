import type { StoredBytes } from "#src/schema/bytes.js";

/**
 * A JSON-RPC message as the exchange reader gives it (`RpcMessage` of `src/cassette/exchanges/`):
 * what a transport's reading of its recorded exchanges asks of it.
 */
export interface RecordedRpc {
  readonly text: string;
  readonly idRaw: string | undefined;
  readonly method: string | undefined;
  /** The tool of a `tools/call`; undefined for any other message. */
  readonly tool: string | undefined;
  member(name: string): unknown;
}

/**
 * A recorded request in the form it was encoded in, whatever transport carried it: a process's
 * argv and stdin (per-call CLI), or a JSON-RPC message (MCP over stdio or HTTP). A new transport
 * reuses one of these encodings, so what reads a request by its encoding needs no change.
 */
export type RecordedRequest = { form: "argv"; argv: readonly string[]; stdin: StoredBytes | undefined } | { form: "rpc"; message: RecordedRpc };

/**
 * A recorded answer in the form it was encoded in: a process's output and exit (per-call CLI), or a
 * JSON-RPC response as stored (an MCP line; an HTTP body, which may be an event stream, with its
 * status). `origin`: whose answer it is (the recorder's own identity calls are "recorder").
 */
export type RecordedAnswer =
  | { form: "output"; stdout: StoredBytes; stderr: StoredBytes; exitCode: number | null; signal: string | undefined; origin: "harness" | "recorder" }
  | { form: "rpc"; body: StoredBytes; status: number | undefined; origin: "harness" | "recorder" };

/**
 * What one transport knows about its recorded exchanges (`X`, the reader's exchange of that
 * transport, `E` the event holding its answer): the one place a reader of recordings learns a transport's specifics. The exchange
 * reader keeps one of these per recorded transport, in a record keyed by the transport's name.
 */
export interface RecordedReading<X, E> {
  /** The tool a request calls: a CLI `call`, a JSON-RPC `tools/call`; undefined for anything else. */
  tool(x: X): string | undefined;
  /** Whether the request is a tool call whose answer comes back (a `cua-driver call`, a `tools/call` with an id). */
  isCall(x: X): boolean;
  /**
   * The name `inspect`'s summary counts the request under (`by_tool`): its tool, or for the CLI a
   * call without a tool or another subcommand (`<--version>`); undefined when it is not counted.
   */
  countedAs(x: X, origin: "harness" | "recorder"): string | undefined;
  /** The exit the request's own event records (`by_exit_code`): a CLI call's exit code or signal. */
  exit(x: X): string | undefined;
  /** The request in its encoding; undefined when it is not a message (an HTTP body that is no JSON object). */
  request(x: X): RecordedRequest | undefined;
  /**
   * The little of an event a reading of tool calls needs (`isCall`, `tool`, the pairing of an MCP
   * answer): prune keeps these in memory, not the answers.
   */
  slim(event: E): E;
  /** The answer an event of the transport holds (`E`: the event the exchange's answer is), in its encoding. */
  answerIn(event: E): RecordedAnswer;
}

/** Whose an event is: the recorder's own identity calls are marked `recorder`; anything else is the harness's. */
export function originOf(event: { origin?: "harness" | "recorder" | undefined }): "harness" | "recorder" {
  return event.origin === "recorder" ? "recorder" : "harness";
}

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
const encoder = new TextEncoder();

/** Stored bytes as UTF-8 text, as the bytes they stand for decode (a string's lone surrogates, not bytes, read as U+FFFD). */
export function storedUtf8(stored: StoredBytes): string {
  return utf8.decode(typeof stored === "string" ? encoder.encode(stored) : Uint8Array.from(atob(stored.data), (c) => c.charCodeAt(0)));
}

/** A member of the JSON object stored bytes hold; undefined when they hold no JSON. */
export function storedMember(stored: StoredBytes, member: string): unknown {
  try {
    return (JSON.parse(storedUtf8(stored)) as Record<string, unknown> | null)?.[member];
  } catch {
    return undefined;
  }
}
