import { storeText } from "#src/cassette/store-text.js";
import { fallback, tap, type StandIn, type StandInReply } from "#src/driver/stand-in.js";
import { learnFromToolCall, learnFromToolResult, parseMcpMessage } from "#src/transports/mcp/secrets.js";
import type { McpIo, McpSessionHandler } from "#src/shim-server/backend.js";
import { answerMcpDecision, checkMcpLine, dispatchMcpLine } from "#src/transports/mcp/dispatch.js";
import { connectionEra, type EraSession } from "#src/transports/mcp/era.js";
import { pairedMcpStandIn, type PairedMcpConnection } from "#src/transports/mcp/live-paired.js";
import { errorLine, withId } from "#src/transports/mcp/wire/envelope.js";
import type { Decision } from "#src/replay/engine/engine.js";
import { parseJsonRpc } from "#src/replay/engine/exchanges.js";
import { mcpOutcome } from "./call-outcome.js";
import type { RecordMissingCore, Step } from "./core.js";
import type { AddedInput } from "./growth.js";

/** How long the end of a harness's stream waits for the live stream to finish its last answer. */
const LIVE_END_MS = 10_000;

/**
 * What the cassette makes of one line of a harness's stream under record-missing, before it is
 * served: nothing (a blank line), a notification (the live stream hears it too, nothing answers
 * it), a line the replay answers by its own rules when it is served (`dispatch`: initialize,
 * tools/list, server/discover, ping, skills, an unknown method, a bad line, a tool the binary
 * hosts), a tool call the replay answered before any lookup (`answered`: refused for its era or its
 * params, logged as the replay logs it; never sent live), the recorded answer to a tool call (not
 * yet logged), none (`missing`), or the line the harness gets from the live stream.
 */
type Held =
  | { kind: "nothing" }
  | { kind: "notification" }
  | { kind: "dispatch"; asked: boolean; method?: string }
  | { kind: "answered"; line: string | undefined }
  | {
      kind: "recorded";
      idRaw: string;
      tool: string | undefined;
      tMs: number;
      decision: Decision;
      step: Step;
      label: string;
      end: number | undefined;
      line: string;
      served?: string;
    }
  | { kind: "missing"; idRaw: string; tool: string | undefined; tMs: number; decision?: Decision }
  | { kind: "live"; line: string };

/** The harness's line as the live stream is asked it: in the live run's ids (the asker gives it an id of its own). */
interface Asked {
  /** The line as the harness sent it. */
  harness: string;
  line: string;
  held: Held;
  /** Set by the growth sink: the harness gets this line (the live answer in the recorded ids, added to the cassette). */
  kept?: string;
}

/**
 * One `cua-driver mcp` stream under `replay --record-missing`, as the per-call CLI is handled
 * (cli-backend.ts, decision 0270): the recorded stream with a live `cua-driver mcp` stream as its
 * fallback, `fallback(replay, tap(live, growth))`. Every request goes to the live stream too
 * (under its own ids, with the harness's identifiers translated), the cassette answers what it
 * has, and what it lacks is answered live and added to the recorded stream `recordedStream` — the
 * request line as the harness sent it and the answer as the harness got it, side by side where
 * they happened. Lines are handled one at a time, in order, as the driver's own loop handles them.
 * The replay side answers each line as the replay front does (`checkMcpLine`, `dispatchMcpLine`,
 * `answerMcpDecision` of src/transports/mcp/dispatch.ts), with the stream's era state: for a
 * recording of 0.28 or later a request is answered in the era it spoke (docs/eras.md), and one the
 * era check refuses never reaches the live stream, as it never reaches a tool.
 */
export function createRecordMissingMcp(o: {
  core: RecordMissingCore;
  /** The recorded stream this harness stream grows (its events carry that stream number). */
  recordedStream: number;
  /** The stream is new to the cassette: the first call added to it opens it, and its end closes it. */
  opens?: boolean;
  init: { argv: string[]; cwd: string; env: Record<string, string> };
  io: McpIo;
}): McpSessionHandler & { readonly done: Promise<void> } {
  const { core, io, recordedStream } = o;
  const growing = { stream: recordedStream, argv: o.opens ? o.init.argv : undefined, opened: false };
  const { session, table, counts } = core;
  const stream = session.openStream("mcp");
  // the driver's era state for this stream, as the replay front keeps it (src/transports/mcp/era.ts)
  const era = connectionEra(session.driverVersion, "mcp");
  let live!: PairedMcpConnection;
  const paired = pairedMcpStandIn((liveIo) => core.live.mcp!(o.init, liveIo));
  const liveStream: StandIn<string, string> = { transport: "mcp", open: () => (live = paired.open()) };
  const replay = replayForGrowth(core, stream, era);
  const connection = fallback<string, Held, Asked, string>(replay, tap(askLive(liveStream, core), growthSink(core, growing)), {
    whenUnanswered: (reply) => held(reply).kind === "missing",
    alsoAsk: (reply) => {
      const h = held(reply);
      return h.kind === "notification" || (h.kind === "dispatch" && h.asked) || (h.kind === "recorded" && h.step !== "local");
    },
    toSecondary: (line, reply) => ({ harness: line, line: table.toLive(line), held: held(reply) }),
    fromSecondary(_reply, { asked, primary, unanswered }) {
      if (asked.kept !== undefined) return { type: "answer", answer: { kind: "live", line: asked.kept } };
      const h = held(primary);
      if (unanswered && h.kind === "missing")
        return {
          type: "answer",
          answer: {
            kind: "live",
            line: errorLine(h.idRaw, -32603, "cua-contract replay --record-missing: the live driver's MCP stream ended before answering"),
          },
        };
      return primary;
    },
  }).open();
  let gone = false;
  const send = (line: string) => {
    if (!gone) io.send(line);
  };

  /** Serves what the fallback gave: a line the replay answers now, a recorded answer (logged now), a live line. */
  const handle = async (line: string): Promise<void> => {
    const h = held(await connection.send(line));
    if (h.kind === "live") return send(h.line);
    if (h.kind === "answered") {
      if (h.line === undefined) return;
      send(h.line);
      counts.served++;
      return;
    }
    if (h.kind === "dispatch") {
      const answer = await dispatchMcpLine({ session, line, stream, transport: "mcp", ...(era ? { era } : {}) });
      if (answer?.type === "line") send(answer.line);
      if (answer) counts.served++;
      const recorded =
        h.method !== undefined ? session.engine.exchanges.find((x) => x.request.method === h.method && x.rpc?.stream === recordedStream) : undefined;
      core.served(recorded, session.engine.epoch);
      return;
    }
    if (h.kind !== "recorded") return;
    send(h.line);
    session.record(h.decision, { tMs: h.tMs, ...(h.served !== undefined ? { served: h.served } : {}) });
    counts.served++;
    core.served(h.decision.exchange, h.decision.epochBefore);
  };

  let queue: Promise<void> = Promise.resolve();
  const enqueue = (fn: () => Promise<void>) => {
    queue = queue
      .then(() => core.serialize(fn))
      .catch((error: unknown) => {
        core.notes.push(`MCP stream ${stream}: ${(error as Error).message}`);
      });
  };
  let markDone: () => void = () => {};
  const done = new Promise<void>((resolve) => (markDone = resolve));
  return {
    done,
    line: (line) => enqueue(() => handle(line)),
    // stdin EOF: the requests before it are answered, the live stream ends too, then this one
    end: () =>
      enqueue(async () => {
        connection.close();
        await Promise.race([live.ended, new Promise((resolve) => setTimeout(resolve, LIVE_END_MS).unref())]);
        closeGrown(core, growing, 0);
        session.closeStream("mcp", stream);
        if (!gone) io.exit(0);
        markDone();
      }),
    gone: () => {
      gone = true;
      closeGrown(core, growing, null);
      live.gone();
      markDone();
    },
  };
}

const held = (reply: StandInReply<Held>): Held => {
  if (reply.type !== "answer") throw new Error(`the record-missing replay gave ${reply.type} where it answers`);
  return reply.answer;
};

/**
 * The replay's side of one harness stream: the decision for a tool call (logged once it is
 * served), what the replay answers by its own rules, and what the cassette lacks in this epoch. A
 * mutation it lacks starts another history. The connection's end is the harness stream's. Each
 * line passes the stream's era state once: a tool call here, any other line when it is dispatched.
 */
function replayForGrowth(core: RecordMissingCore, stream: number, era: EraSession | undefined): StandIn<string, Held> {
  const { session, redactor } = core;
  const answer = (h: Held): StandInReply<Held> => ({ type: "answer", answer: h });
  const send = async (line: string): Promise<StandInReply<Held>> => {
    if (line.trim() === "") return answer({ kind: "nothing" });
    const message = parseJsonRpc(line);
    const valid = message !== undefined && message.method !== undefined && /"jsonrpc"\s*:/.test(line);
    if (valid && message.idRaw === undefined) return answer({ kind: "notification" });
    // initialize, tools/list, an unknown method, a bad line: answered as the replay answers them (the live stream is initialized too)
    if (!valid || message.method !== "tools/call" || isHostTool(message.params))
      return answer({
        kind: "dispatch",
        asked: valid && (message.method === "initialize" || message.method === "tools/list"),
        ...(valid ? { method: message.method } : {}),
      });
    // the replay front's checks, era first: a call refused before any lookup is answered here and never sent live
    const checked = checkMcpLine({ session, line, stream, transport: "mcp", ...(era ? { era } : {}) });
    if (checked.type === "answered") return answer({ kind: "answered", line: checked.answer?.type === "line" ? checked.answer.line : undefined });
    const { idRaw, request } = checked;
    const parsed = parseMcpMessage(line);
    const tool = parsed ? learnFromToolCall(redactor, parsed) : undefined;
    const tMs = session.t();
    const decided = core.decide(request);
    if (decided.step === "missing") return answer({ kind: "missing", idRaw, tool, tMs, ...(decided.decision ? { decision: decided.decision } : {}) });
    const { decision, step, label, end } = decided;
    const rendered = answerMcpDecision({ decision, checked, transport: "mcp" });
    if (rendered.type !== "line") throw new Error("record-missing serves no faults");
    return answer({
      kind: "recorded",
      idRaw,
      tool,
      tMs,
      decision,
      step,
      label,
      end,
      line: rendered.line,
      ...(rendered.served !== undefined ? { served: rendered.served } : {}),
    });
  };
  return { transport: "mcp", open: () => ({ send, close() {} }) };
}

/**
 * The live stream asked request by request under ids of this run's own; a notification is passed
 * on as it is. A request is not sent once the live stream has exited.
 */
function askLive(liveStream: StandIn<string, string>, core: RecordMissingCore): StandIn<Asked, string> {
  return {
    transport: "mcp",
    open() {
      const live = liveStream.open() as PairedMcpConnection;
      let next = 0;
      return {
        send(asked) {
          if (asked.held.kind === "notification") return live.send(asked.line);
          if (live.exited) return Promise.resolve({ type: "closed", code: null });
          const id = JSON.stringify(`cua-contract-record-missing-${next++}`);
          core.counts.forwarded++;
          return live.send(withId(asked.line, id));
        },
        close: () => live.close(),
      };
    },
  };
}

/**
 * What the live answers teach and grow: a recorded answer's pair teaches the id table and, for a
 * mutation, is compared (a difference that starts another history keeps the live answer); a live
 * answer the harness gets is put in the recorded ids and added to the recorded stream, the request
 * line as the harness sent it beside it, and the replay's model of the driver sees it too.
 */
function growthSink(core: RecordMissingCore, growing: Growing) {
  const { session, table, growth, counts, redactor } = core;
  const recordedStream = growing.stream;
  return (asked: Asked) => (reply: StandInReply<string>) => {
    if (reply.type !== "answer") return;
    const sent = reply.answer;
    const provenance = reply.provenance;
    const h = asked.held;
    if (h.kind === "recorded") {
      const liveResult = resultOf(sent);
      if (h.step === "recorded" && h.served !== undefined && liveResult !== undefined) core.learn(h.label, h.served, liveResult);
      if (h.decision.kind !== "mutation") return;
      if (core.compare({ decision: h.decision, step: h.step, label: h.label, recorded: mcpOutcome(h.line), live: mcpOutcome(sent), end: h.end }) !== "diverge")
        return;
      keep(h);
    } else if (h.kind === "missing") keep(h);

    function keep(m: { idRaw: string; tool: string | undefined; tMs: number; decision?: Decision }) {
      const answer = withId(table.toRecorded(sent), m.idRaw);
      asked.kept = answer;
      const message = parseMcpMessage(answer);
      if (message) learnFromToolResult(redactor, m.tool, message);
      // what of the live answer the runtime's stand-in built, marked as a recording marks it (decision 0271)
      const marks = provenance?.synthesized ? { synthesized: provenance.synthesized } : provenance?.wrapped ? { wrapped: provenance.wrapped } : {};
      const event = (dir: "c2s" | "s2c", text: string): AddedInput => {
        const stored = storeText({ bytes: text, field: "line", redactor, putFrame: core.putFrame });
        return {
          kind: "mcp",
          stream: recordedStream,
          dir,
          line: stored.stored,
          ...(stored.splices.length ? { frames: stored.splices } : {}),
          origin: "harness",
          added: core.added,
          ...(dir === "s2c" ? marks : {}),
        };
      };
      const open: AddedInput[] = [];
      if (growing.argv && !growing.opened) {
        growing.opened = true;
        open.push({ kind: "mcp_open", stream: recordedStream, argv: growing.argv.map((a) => redactor.text(a)), origin: "harness", added: core.added });
      }
      growth.add([...open, event("c2s", asked.harness), event("s2c", answer)]);
      counts.added++;
      if (m.decision) {
        const { miss: _miss, ...decision } = m.decision;
        const result = message && "result" in message ? JSON.stringify((message as { result: unknown }).result) : undefined;
        session.record({ ...decision, outcome: "replayed" }, { tMs: m.tMs, ...(result !== undefined ? { served: result } : {}) });
      }
    }
  };
}

/** The recorded stream a harness stream grows; `argv` when the stream is new to the cassette (opened by its first added call). */
interface Growing {
  stream: number;
  argv: string[] | undefined;
  opened: boolean;
}

/** A stream new to the cassette that was opened ends where the harness stream ended (`null`: the harness went away). */
function closeGrown(core: RecordMissingCore, growing: Growing, exitCode: number | null): void {
  if (!growing.opened) return;
  growing.opened = false;
  growing.argv = undefined;
  core.growth.add([{ kind: "mcp_close", stream: growing.stream, exit_code: exitCode, origin: "harness", added: core.added }]);
}

/** `check_for_update` is hosted by the binary itself, not the runtime: the replay answers it offline. */
function isHostTool(params: unknown): boolean {
  return (params as { name?: unknown } | undefined)?.name === "check_for_update";
}

/** The `result` of a JSON-RPC answer line, as JSON text (undefined for an error or a line that does not parse). */
function resultOf(line: string): string | undefined {
  try {
    const m = JSON.parse(line) as { result?: unknown };
    return m.result === undefined ? undefined : JSON.stringify(m.result);
  } catch {
    return undefined;
  }
}
