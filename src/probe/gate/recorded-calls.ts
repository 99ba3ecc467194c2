import { createHash } from "node:crypto";
import { CASSETTE_FILE, parseDriverArgv, scanCassette, schemaValidators, type Cassette, type CassetteScan, type EventPlace } from "#src/cassette/index.js";
import { fileStamp, readScannedEvent, type FileStamp } from "#src/cassette/event-at.js";
import type { CassetteEvent } from "#src/schema/cassette.js";
import { createCompactor, type Compactor } from "#src/util/compact-json.js";
import { createLru } from "#src/util/lru.js";
import { eventText, isObject, jsonOrUndefined, storedString } from "#src/probe/event-json.js";
import {
  answerIn,
  answerOf,
  createExchangeReader,
  requestOf,
  toolOf,
  type RecordedAnswer,
  type RecordedExchange,
  type RecordedRequest,
  type RecordedTransport,
} from "#src/cassette/exchanges/index.js";
import { assertNever } from "#src/util/assert-never.js";
import path from "node:path";

/** One tool call found in a recording: what was sent and, when structured, what came back. */
export interface RecordedCall {
  cassette: string;
  /** The event's `seq` (the request's event for MCP/HTTP). */
  event: number;
  /** 1-based line in cassette.jsonl. */
  line: number;
  tool: string;
  transport: RecordedTransport;
  /** The arguments object sent; undefined when they were not JSON. */
  args?: unknown;
  /** structuredContent of the answer; undefined when the answer had none. */
  output?: unknown;
  /** Where the output came from: its own event. */
  outputEvent?: number;
}

/**
 * Every tool call in a cassette. Images cut out at record time are left out: they sit inside
 * JSON strings, so the text stays valid JSON and nothing needs the frame files.
 */
export function recordedCalls(cassette: Cassette, name: string): RecordedCall[] {
  const collector = createCallCollector(name);
  for (const [index, event] of cassette.events.entries()) collector.add(event, cassette.lines[index] ?? 0);
  return collector.calls;
}

/** Outputs kept as parsed, each on its own, up to this many bytes of the lines holding them: a gate over small recordings pays nothing more. */
export const PLAIN_BUDGET_BYTES = 16 * 2 ** 20;
/** Past that, distinct outputs kept in memory (characters of their JSON); past both, outputs are read again when checked. */
export const OUTPUT_BUDGET_CHARS = 16 * 2 ** 20;

/**
 * The recorded calls of a cassette directory, read line by line (no event is kept). Outputs are
 * kept as parsed up to `plainBudget` bytes of their lines; then equal outputs are kept once, until
 * the distinct ones pass `budget` characters; past that an output is read again from its line in
 * cassette.jsonl each time it is checked. Memory does not grow with the cassette.
 */
export function scanRecordedCalls(
  dir: string,
  name: string,
  options: { plainBudget?: number; budget?: number } = {},
): { calls: RecordedCall[]; scan: CassetteScan } {
  const file = path.join(dir, CASSETTE_FILE);
  let stamp: FileStamp | undefined;
  const reread = createLru<number, unknown>({ maxWeight: 8 * 2 ** 20 });
  const store: OutputStore = {
    compactor: createCompactor(),
    plain: [],
    plainBytes: 0,
    plainBudget: options.plainBudget ?? PLAIN_BUDGET_BYTES,
    budget: options.budget ?? OUTPUT_BUDGET_CHARS,
    used: 0,
    distinct: new Map(),
    read: (seq, place) =>
      reread.through(
        seq,
        () => outputOf(answerIn(readScannedEvent({ file, place, seq, stamp: (stamp ??= fileStamp(file)) }))),
        (v) => 64 + JSON.stringify(v ?? null).length,
      ),
  };
  const collector = createCallCollector(name, store);
  const scan = scanCassette({ dir, validators: schemaValidators, frames: "skip", onEvent: (event, place) => collector.add(event, place.line, place) });
  stamp = fileStamp(file);
  return { calls: collector.calls, scan };
}

interface OutputStore {
  /** Outputs kept as parsed so far; undefined once equal outputs are kept once. */
  plain: unknown[] | undefined;
  plainBytes: number;
  plainBudget: number;
  budget: number;
  used: number;
  /** Outputs by the hash of their JSON text. */
  distinct: Map<string, unknown>;
  /** Shares equal strings among the outputs and arguments kept (one table per cassette read). */
  compactor: Compactor;
  read(seq: number, place: EventPlace): unknown;
}

const hashOf = (text: string) => createHash("sha1").update(text).digest("base64");

/** The output a call keeps: this one, an equal one already kept, this one compacted (within budget), or a reader of its line. */
function keepOutput(call: RecordedCall, output: unknown, seq: number, store: OutputStore | undefined, place: EventPlace | undefined): void {
  if (!store || !place) call.output = output;
  else if (store.plain && store.plainBytes + place.bytes <= store.plainBudget) {
    store.plain.push(output);
    store.plainBytes += place.bytes;
    call.output = output;
  } else {
    if (store.plain) {
      // from here on equal outputs are kept once: those kept so far are the first of their kind
      for (const kept of store.plain) {
        const text = JSON.stringify(kept);
        const hash = hashOf(text);
        if (store.distinct.has(hash)) continue;
        store.distinct.set(hash, kept);
        store.used += text.length;
      }
      store.plain = undefined;
    }
    const text = JSON.stringify(output);
    const hash = hashOf(text);
    const kept = store.distinct.get(hash);
    if (kept !== undefined) call.output = kept;
    else if (store.used + text.length <= store.budget) {
      const value = store.compactor.compactValue(output);
      store.distinct.set(hash, value);
      store.used += text.length;
      call.output = value;
    } else Object.defineProperty(call, "output", { get: () => store.read(seq, place), enumerable: true, configurable: true });
  }
  call.outputEvent = seq;
}

interface CallCollector {
  add(event: CassetteEvent, line: number, place?: EventPlace): void;
  readonly calls: RecordedCall[];
}

function createCallCollector(name: string, store?: OutputStore): CallCollector {
  const calls: RecordedCall[] = [];
  // the tool calls waiting for their answers (an MCP call's comes on a later line)
  const waiting = new Map<RecordedExchange<At>, RecordedCall>();
  // arguments are compacted once outputs are deduplicated (a large recording)
  const compact = (v: unknown) => (store && !store.plain ? store.compactor.compactValue(v) : v);
  const reader = createExchangeReader<At>(
    {
      request(x) {
        const tool = toolOf(x);
        const request = requestOf(x);
        if (tool === undefined || !request) return;
        const call: RecordedCall = { cassette: name, event: x.request.event.seq, line: x.request.place.line, tool, transport: x.transport };
        const args = argumentsOf(request);
        if (args !== undefined) call.args = compact(args);
        calls.push(call);
        waiting.set(x, call);
      },
      whole(x) {
        const call = waiting.get(x);
        if (!call || !x.answer) return;
        waiting.delete(x);
        const output = outputOf(answerOf(x));
        if (output !== undefined) keepOutput(call, output, x.answer.event.seq, store, x.answer.place.place);
      },
    },
    { text: eventText },
  );
  return {
    calls,
    add: (event, line, place) => reader.add(event, place ? { line, place } : { line }),
  };
}

/** Where an event is: its line in cassette.jsonl, and its place when read line by line. */
type At = { line: number; place?: EventPlace };

/**
 * A tool call's arguments as sent: a JSON-RPC call's `params.arguments` (`{}` when there are none);
 * a CLI call's JSON positional (undefined when it is not JSON: it never reaches the driver, exit 2),
 * else its stdin, which the CLI reads as {} when missing or invalid (docs/reference/cua-driver-contract.md §1.6).
 */
function argumentsOf(request: RecordedRequest): unknown {
  switch (request.form) {
    case "rpc": {
      const params = request.message.member("params");
      return (isObject(params) ? params.arguments : undefined) ?? {};
    }
    case "argv": {
      const json = parseDriverArgv(request.argv).json;
      if (json !== undefined) return jsonOrUndefined(json);
      const stdin = request.stdin === undefined ? "" : storedString(request.stdin);
      return (stdin.trim() === "" ? {} : jsonOrUndefined(stdin)) ?? {};
    }
    default:
      return assertNever(request, "recorded request");
  }
}

/** The structured output an answer carries: a successful CLI call's stdout object, a JSON-RPC result's structuredContent. */
function outputOf(answer: RecordedAnswer | undefined): unknown {
  if (!answer) return undefined;
  switch (answer.form) {
    case "output": {
      if (answer.exitCode !== 0) return undefined;
      const out = jsonOrUndefined(storedString(answer.stdout));
      if (!isObject(out)) return undefined;
      // `call` merges the last image into the printed structuredContent under these names (docs/reference/cua-driver-contract.md §0.3).
      const { screenshot_png_b64: _b64, ...rest } = out;
      return "screenshot_png_b64" in out ? rest : out;
    }
    case "rpc": {
      const msg = jsonOrUndefined(storedString(answer.body));
      return isObject(msg) && isObject(msg.result) && msg.result.structuredContent !== undefined ? msg.result.structuredContent : undefined;
    }
    default:
      return assertNever(answer, "recorded answer");
  }
}
