import type { CassetteEvent, CliEvent, HttpEvent, McpLineEvent } from "#src/schema/cassette.js";
import type { StoredBytes } from "#src/schema/bytes.js";
import type { ToolKind } from "#src/schema/replay-log.js";
import type { ToolInfo } from "#src/driver/port.js";
import { isReadOnlyTool } from "#src/driver/catalogue.js";
import type { EventPlace } from "#src/cassette/scan.js";
import type { Lru } from "#src/util/lru.js";
import { createReplayMemo } from "./memo.js";
import type { RecordedExchange, ReplayMemo } from "./recorded-exchange.js";
import { createCompactor, type Compactor } from "#src/util/compact-json.js";
import { restoreField, type FrameLookup } from "./frames.js";
import { objectSpans } from "#src/wire/json/spans.js";
import { originOf } from "#src/wire/recorded.js";
import { isLifecycleTool } from "./session-lifecycle.js";
import { recordedAnswerClass } from "./answer-summary.js";
import { cliRequest, mcpRequest, type JsonRpcMessage, type ReplayRequest } from "./request.js";
import {
  createExchangeReader,
  type HttpExchange,
  type McpExchange,
  type RecordedExchange as ReaderExchange,
  type RecordedTransport,
  type RpcMessage,
} from "#src/cassette/exchanges/index.js";

export type { RecordedExchange } from "./recorded-exchange.js";

export function parseJsonRpc(line: string): JsonRpcMessage | undefined {
  try {
    const spans = objectSpans(line);
    const message: JsonRpcMessage = {};
    const id = spans.get("id");
    if (id) {
      const raw = line.slice(id.start, id.end);
      if (raw !== "null") message.idRaw = raw;
    }
    const method = spans.get("method");
    if (method) message.method = JSON.parse(line.slice(method.start, method.end)) as string;
    const params = spans.get("params");
    if (params) message.params = JSON.parse(line.slice(params.start, params.end));
    return message;
  } catch {
    return undefined;
  }
}

/** Read, mutation or other, by the tool list's annotations (else the 0.21 read-only list). */
export function kindOf(request: ReplayRequest, tools?: readonly ToolInfo[]): ToolKind {
  if (request.method !== "call" || request.tool === undefined) return "other";
  return isReadOnlyTool(request.tool, tools) ? "read" : "mutation";
}

function text(bytes: StoredBytes): string {
  return typeof bytes === "string" ? bytes : "";
}

/**
 * Where the answers of a file-backed preparation come from: each event read again from its place
 * in cassette.jsonl when an answer is used, its frames put back, and the result kept in a bounded
 * cache. The exchanges themselves then hold only what matching needs (requests, epochs, metadata).
 */
export interface AnswerSource {
  /** The event with this seq, read again from its place (the scan validated it). */
  read(seq: number, place: EventPlace): CassetteEvent;
  frame: FrameLookup;
  /** Restored answers by `seq` of the event holding them. */
  cache: Lru<number, unknown>;
}

/** Builds exchanges from events in file order, one event at a time (the events need not be kept). */
export interface ExchangeBuilder {
  /** `place`: where the event is in cassette.jsonl (with an AnswerSource, its answer is read from there when used). */
  add(event: CassetteEvent, place?: EventPlace): void;
  readonly exchanges: RecordedExchange[];
}

export function createExchangeBuilder(options: {
  frame?: FrameLookup;
  tools?: readonly ToolInfo[];
  answers?: AnswerSource;
  memo?: ReplayMemo;
  /** An exchange built before (its index in `exchanges`) got its answer from the event just added (an MCP response on its stream). */
  answered?: (index: number) => void;
}): ExchangeBuilder {
  const { tools, answers } = options;
  const frame = options.frame ?? answers?.frame;
  const f = frame ? { frame } : {};
  const out: RecordedExchange[] = [];
  // the reader's MCP requests this builder kept, waiting for their answers
  const pending: Pending = new Map();
  const context: BuildContext = { frame, tools, pending, out };
  const memo = options.memo ?? createReplayMemo();
  const compact = createCompactor();
  const withMemo = (x: RecordedExchange): RecordedExchange => {
    x.memo = memo;
    return x;
  };
  // a request's text has its frames put back (they may be arguments); an answer read later needs only its id now
  let lazy: Lazy | undefined;
  const reader = createExchangeReader<Lazy | undefined>(
    {
      request(x) {
        const built = (BUILD[x.transport] as Build<typeof x>)(x, context);
        if (built) out.push(withMemo(built));
      },
      answer(x) {
        const index = pending.get(x);
        if (index === undefined || !x.answer) return;
        pending.delete(x);
        const exchange = out[index]!;
        const { event, place, message } = x.answer;
        exchange.rpc = place ? new StoredRpc(place, event.seq, mcpLine, { stream: x.stream }) : { response: message.text, stream: x.stream };
        if (exchange.request.method === "call" && recordedAnswerClass({ type: "rpc", response: message.text }) === "refused") exchange.refused = true;
        exchange.durationMs = Math.max(0, event.t_ms - x.request.event.t_ms);
        if (event.synthesized) exchange.recordedSynthesis = event.synthesized;
        options.answered?.(index);
      },
    },
    {
      text(event, field) {
        if (field === "request.body") {
          const e = event as HttpEvent;
          return restoreField({ text: text(e.request.body), field, splices: e.frames, ...f });
        }
        const e = event as McpLineEvent;
        return lazy && e.dir === "s2c" ? text(e.line) : restoreField({ text: text(e.line), field, splices: e.frames, ...f });
      },
    },
  );
  return {
    exchanges: out,
    add(event, place) {
      lazy = answers && place ? { answers, place, compact } : undefined;
      reader.add(event, lazy);
    },
  };
}

/** The reader's MCP requests a builder kept, waiting for their answers: the index of each one's exchange. */
type Pending = Map<McpExchange<Lazy | undefined>, number>;

/** What building an exchange of any transport is given besides the reader's exchange. */
interface BuildContext {
  frame: FrameLookup | undefined;
  tools: readonly ToolInfo[] | undefined;
  pending: Pending;
  /** The exchanges built so far (the next one's index is their count). */
  out: readonly RecordedExchange[];
}

type Build<X> = (x: X, context: BuildContext) => RecordedExchange | undefined;

/**
 * How the replay builds its exchange from the reader's, per recorded transport, keyed by the
 * transport's name: a transport added to `RecordedTransport` without its entry fails the type-check.
 * It is the replay engine's (its requests and lazy answers), so it lives here, before `transports/`.
 */
const BUILD: { readonly [T in RecordedTransport]: Build<Extract<ReaderExchange<Lazy | undefined>, { transport: T }>> } = {
  cli: (x, { frame, tools }) => cliExchange(x.request.event, frame, tools, x.request.place),
  http: (x, { frame, tools }) => httpExchange(x, frame, tools),
  mcp(x, { tools, pending, out }) {
    // notifications get no answer; keep them out of the exchanges
    const message = x.request.message;
    if (message.idRaw === undefined || message.idRaw === "null") return undefined;
    const built = mcpRequest({ message: jsonRpcOf(message), stream: x.stream });
    const request = x.request.place ? compactRequest(built, x.request.place.compact) : built;
    const exchange: RecordedExchange = {
      seq: x.request.event.seq,
      transport: "mcp",
      request,
      kind: kindOf(request, tools),
      epoch: 0,
      origin: x.origin,
      durationMs: 0,
      rpc: { stream: x.stream },
      ...(x.request.event.fault ? { fault: x.request.event.fault } : {}),
    };
    pending.set(x, out.length);
    return exchange;
  },
};

/** The message as the replay's requests take it: the params only of a tool call (the driver ignores the others'). */
function jsonRpcOf(message: RpcMessage): JsonRpcMessage {
  const out: JsonRpcMessage = {};
  if (message.idRaw !== undefined && message.idRaw !== "null") out.idRaw = message.idRaw;
  if (message.method !== undefined) out.method = message.method;
  if (message.method === "tools/call") out.params = message.member("params");
  return out;
}

/**
 * Pair every recorded request with its answer: a CLI event is both; an MCP request line is
 * paired with the response line carrying the same id on the same stream; an HTTP event is both.
 */
export function buildExchanges(options: { events: readonly CassetteEvent[]; frame?: FrameLookup; tools?: readonly ToolInfo[] }): RecordedExchange[] {
  const builder = createExchangeBuilder({ ...(options.frame ? { frame: options.frame } : {}), ...(options.tools ? { tools: options.tools } : {}) });
  for (const event of options.events) builder.add(event);
  return builder.exchanges;
}

type Lazy = { answers: AnswerSource; place: EventPlace; compact: Compactor };

// Recorded requests repeat the same short strings (tool, socket, session, out-file paths) and, built
// by spreads, each got a hidden class of its own: a file-backed preparation keeps them compact, so
// that what stays in memory per exchange is small (docs/decisions/0150).
function compactRequest(request: ReplayRequest, compact: Compactor): ReplayRequest {
  return compact.compactValue(request) as ReplayRequest;
}

// The readers below hold the event's seq and place, never the event: a closure over the event would
// keep the whole recorded line in memory, which is what they avoid. Classes, not per-object getters:
// one hidden class for all of them (an accessor defined per object gives each object its own).

/** An answer read from the cassette when first used, then kept while the cache has room. */
function lazyAnswer<T>(lazy: Lazy, seq: number, restore: (event: CassetteEvent, frame: FrameLookup) => T): T {
  const hit = lazy.answers.cache.get(seq);
  if (hit !== undefined) return hit as T;
  const value = restore(lazy.answers.read(seq, lazy.place), lazy.answers.frame);
  lazy.answers.cache.set(seq, value, weightOf(value));
  return value;
}

function weightOf(value: unknown): number {
  if (typeof value === "string") return value.length + 64;
  if (value && typeof value === "object") {
    let n = 64;
    for (const v of Object.values(value)) n += typeof v === "string" ? v.length : v && typeof v === "object" ? weightOf(v) : 8;
    return n;
  }
  return 64;
}

const mcpLine = (e: CassetteEvent, frame: FrameLookup) =>
  restoreField({ text: text((e as McpLineEvent).line), field: "line", splices: (e as McpLineEvent).frames, frame });

function cliOutput(e: CliEvent, frame: FrameLookup | undefined): { stdout: StoredBytes; stderr: StoredBytes } {
  return {
    stdout: typeof e.stdout === "string" ? restoreField({ text: e.stdout, field: "stdout", splices: e.frames, ...(frame ? { frame } : {}) }) : e.stdout,
    stderr: e.stderr,
  };
}

function httpResponse(e: HttpEvent, frame: FrameLookup | undefined): string {
  return restoreField({ text: text(e.response.body), field: "response.body", splices: e.frames, ...(frame ? { frame } : {}) });
}

const httpBody = (e: CassetteEvent, frame: FrameLookup) => httpResponse(e as HttpEvent, frame);
const cliBytes = (e: CassetteEvent, frame: FrameLookup) => cliOutput(e as CliEvent, frame);

type Rpc = NonNullable<RecordedExchange["rpc"]>;
type Cli = NonNullable<RecordedExchange["cli"]>;

/** An `rpc` whose response line or body is read on demand; it reads like the recorded string. */
class StoredRpc implements Rpc {
  status?: number;
  contentType?: string;
  stream?: number;
  constructor(
    private readonly lazy: Lazy,
    private readonly seq: number,
    private readonly restore: (event: CassetteEvent, frame: FrameLookup) => string,
    meta: Omit<Rpc, "response">,
  ) {
    Object.assign(this, meta);
  }
  get response(): string {
    return lazyAnswer(this.lazy, this.seq, this.restore);
  }
  toJSON(): Rpc {
    return {
      response: this.response,
      ...(this.status !== undefined ? { status: this.status } : {}),
      ...(this.contentType !== undefined ? { contentType: this.contentType } : {}),
      ...(this.stream !== undefined ? { stream: this.stream } : {}),
    };
  }
}

/** A CLI answer whose stdout and stderr are read on demand. */
class StoredCli implements Cli {
  exitCode: number | null;
  signal?: string;
  files?: NonNullable<Cli["files"]>;
  constructor(
    private readonly lazy: Lazy,
    private readonly seq: number,
    meta: Omit<Cli, "stdout" | "stderr">,
  ) {
    this.exitCode = meta.exitCode;
    if (meta.signal !== undefined) this.signal = meta.signal;
    if (meta.files) this.files = meta.files;
  }
  get stdout(): StoredBytes {
    return lazyAnswer(this.lazy, this.seq, cliBytes).stdout;
  }
  get stderr(): StoredBytes {
    return lazyAnswer(this.lazy, this.seq, cliBytes).stderr;
  }
  toJSON(): Cli {
    return {
      stdout: this.stdout,
      stderr: this.stderr,
      exitCode: this.exitCode,
      ...(this.signal !== undefined ? { signal: this.signal } : {}),
      ...(this.files ? { files: this.files } : {}),
    };
  }
}

function cliExchange(event: CliEvent, frame: FrameLookup | undefined, tools: readonly ToolInfo[] | undefined, lazy: Lazy | undefined): RecordedExchange {
  const f = frame ? { frame } : {};
  const stdin = event.stdin === undefined ? undefined : restoreField({ text: text(event.stdin), field: "stdin", splices: event.frames, ...f });
  const built = cliRequest({ argv: event.argv.slice(argvStart(event.argv)), ...(stdin !== undefined ? { stdin } : {}) });
  const request = lazy ? compactRequest(built, lazy.compact) : built;
  const meta = {
    exitCode: event.exit_code,
    ...(event.signal !== undefined ? { signal: event.signal } : {}),
    ...(event.files ? { files: lazy ? (lazy.compact.compactValue(event.files) as NonNullable<CliEvent["files"]>) : event.files } : {}),
  };
  const cli = lazy ? new StoredCli(lazy, event.seq, meta) : { ...cliOutput(event, frame), ...meta };
  const answered =
    request.method === "call"
      ? recordedAnswerClass({
          type: "cli",
          tool: request.tool,
          stdout: typeof event.stdout === "string" ? event.stdout : undefined,
          stderr: text(event.stderr),
          exitCode: event.exit_code,
        })
      : "done";
  return {
    seq: event.seq,
    transport: "cli",
    request,
    kind: kindOf(request, tools),
    epoch: 0,
    origin: originOf(event),
    durationMs: event.duration_ms,
    cli,
    ...(event.fault ? { fault: event.fault } : {}),
    ...(answered === "refused" ? { refused: true as const } : {}),
    ...(event.start_seq !== undefined ? { startSeq: event.start_seq } : {}),
    startMs: event.t_ms,
  };
}

/** Recorded argv may start with the program name; the driver's own argv starts after it. */
function argvStart(argv: readonly string[]): number {
  const first = argv[0];
  return first !== undefined && /(^|\/)cua-driver(-local)?$/.test(first) ? 1 : 0;
}

function httpExchange(x: HttpExchange<Lazy | undefined>, frame: FrameLookup | undefined, tools: readonly ToolInfo[] | undefined): RecordedExchange | undefined {
  const { event, place: lazy, message } = x.request;
  if (!message || message.method === undefined || message.idRaw === undefined || message.idRaw === "null") return undefined;
  const built = mcpRequest({ message: jsonRpcOf(message), transport: "http" });
  const request = lazy ? compactRequest(built, lazy.compact) : built;
  const answer = text(event.response.body);
  const refused = request.method === "call" && recordedAnswerClass({ type: "rpc", response: answer }) === "refused";
  const meta = {
    status: event.response.status,
    ...(event.response.content_type !== undefined ? { contentType: event.response.content_type } : {}),
  };
  return {
    seq: event.seq,
    transport: "http",
    request,
    kind: kindOf(request, tools),
    epoch: 0,
    origin: x.origin,
    durationMs: event.duration_ms,
    rpc: lazy ? new StoredRpc(lazy, event.seq, httpBody, meta) : { response: httpResponse(event, frame), ...meta },
    ...(refused ? { refused: true as const } : {}),
  };
}

/**
 * Whether a recorded exchange changed the desktop: a harness mutation the driver saw and did not
 * refuse, other than a session start or end (they change which session a call runs in, never what
 * is on screen). The replay moves its epoch by the same rule (docs/matching.md, "Epochs").
 */
export function endsEpoch(x: RecordedExchange): boolean {
  return x.kind === "mutation" && x.origin === "harness" && x.fault?.forwarded !== false && x.refused !== true && !isLifecycleTool(x.request.tool);
}

/**
 * Number the states a recording passed through: every exchange gets the epoch it was recorded
 * in, and each harness mutation ends its epoch (docs/matching.md), except one a recording fault kept
 * from the driver (`fault.forwarded: false`): the desktop did not change.
 */
export function assignEpochs(exchanges: RecordedExchange[]): number {
  let epoch = 0;
  for (const x of exchanges) {
    x.epoch = epoch;
    if (endsEpoch(x)) epoch++;
  }
  return epoch;
}
