import { storeText } from "#src/cassette/store-text.js";
import { learnFromToolCall, learnFromToolResult, parseMcpMessage } from "#src/transports/mcp/secrets.js";
import type { McpIo, McpSessionHandler } from "#src/shim-server/backend.js";
import { answerMcpCall } from "#src/transports/mcp/answer.js";
import { dispatchMcpLine } from "#src/transports/mcp/dispatch.js";
import { pairedMcpStandIn } from "#src/transports/mcp/live-paired.js";
import { errorLine, withId } from "#src/transports/mcp/wire/envelope.js";
import type { Decision } from "#src/replay/engine/engine.js";
import { parseJsonRpc } from "#src/replay/engine/exchanges.js";
import { mcpRequest } from "#src/replay/engine/request.js";
import { mcpOutcome } from "./call-outcome.js";
import { classify, endsItsEpoch, type RecordMissingCore } from "./core.js";
import type { AddedInput } from "./growth.js";

/** How long the end of a harness's stream waits for the live stream to finish its last answer. */
const LIVE_END_MS = 10_000;

/**
 * One `cua-driver mcp` stream under `replay --record-missing`, as the per-call CLI is handled
 * (cli-backend.ts): every request goes to a live `cua-driver mcp` stream too (under its own ids,
 * with the harness's identifiers translated), the cassette answers what it has, and what it lacks
 * is answered live and added to the recorded stream `recordedStream` — the request line as the
 * harness sent it and the answer as the harness got it, side by side where they happened.
 * Lines are handled one at a time, in order, as the driver's own loop handles them.
 */
export function createRecordMissingMcp(o: {
  core: RecordMissingCore;
  /** The recorded stream this harness stream grows (its events carry that stream number). */
  recordedStream: number;
  init: { argv: string[]; cwd: string; env: Record<string, string> };
  io: McpIo;
}): McpSessionHandler & { readonly done: Promise<void> } {
  const { core, io, recordedStream } = o;
  const { session, table, growth, counts, redactor } = core;
  const stream = session.openStream("mcp");
  // the live stream, asked request by request under ids of this run's own
  const live = pairedMcpStandIn((liveIo) => core.live.mcp!(o.init, liveIo)).open();
  let next = 0;
  /** The request sent live under an id of its own; its live answer line, or undefined when the live stream ended. */
  const ask = async (line: string): Promise<string | undefined> => {
    if (live.exited) return undefined;
    const id = JSON.stringify(`cua-contract-record-missing-${next++}`);
    counts.forwarded++;
    const reply = await live.send(withId(table.toLive(line), id));
    return reply.type === "answer" ? reply.answer : undefined;
  };
  let gone = false;
  const send = (line: string) => {
    if (!gone) io.send(line);
  };

  const addLive = (a: { line: string; idRaw: string; tool: string | undefined; sent: string | undefined; decision?: Decision; tMs: number }) => {
    if (a.sent === undefined) {
      send(errorLine(a.idRaw, -32603, "cua-contract replay --record-missing: the live driver's MCP stream ended before answering"));
      return;
    }
    const answer = withId(table.toRecorded(a.sent), a.idRaw);
    send(answer);
    const message = parseMcpMessage(answer);
    if (message) learnFromToolResult(redactor, a.tool, message);
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
      };
    };
    growth.add([event("c2s", a.line), event("s2c", answer)]);
    counts.added++;
    if (a.decision) {
      const { miss: _miss, ...decision } = a.decision;
      const result = message && "result" in message ? JSON.stringify((message as { result: unknown }).result) : undefined;
      session.record({ ...decision, outcome: "replayed" }, { tMs: a.tMs, ...(result !== undefined ? { served: result } : {}) });
    }
  };

  const handle = async (line: string): Promise<void> => {
    if (line.trim() === "") return;
    const message = parseJsonRpc(line);
    const valid = message !== undefined && message.method !== undefined && /"jsonrpc"\s*:/.test(line);
    if (valid && message.idRaw === undefined) {
      void live.send(table.toLive(line)); // a notification: the live stream hears it too, nothing answers it
      return;
    }
    if (!valid || message.method !== "tools/call" || isHostTool(message.params)) {
      // initialize, tools/list, an unknown method, a bad line: answered as the replay answers them (the live stream is initialized too)
      if (valid && (message.method === "initialize" || message.method === "tools/list")) await ask(line);
      const answer = await dispatchMcpLine({ session, line, stream, transport: "mcp" });
      if (answer?.type === "line") send(answer.line);
      if (answer) counts.served++;
      const recorded = valid ? session.engine.exchanges.find((x) => x.request.method === message.method && x.rpc?.stream === recordedStream) : undefined;
      core.served(recorded, session.engine.epoch);
      return;
    }
    const idRaw = message.idRaw!;
    const parsed = parseMcpMessage(line);
    const tool = parsed ? learnFromToolCall(redactor, parsed) : undefined;
    const request = mcpRequest({ message, stream, transport: "mcp" });
    const tMs = session.t();
    if (growth.diverged) return addLive({ line, idRaw, tool, sent: await ask(line), tMs });
    const end = core.epochEnd(session.engine.epoch);
    const decision = session.decide(request);
    const step = classify(decision);
    const label = `#${decision.n} ${request.tool ?? request.method}`;
    if (step === "missing") {
      if (endsItsEpoch(decision)) core.diverge(decision.n, `${label} is a mutation the cassette does not have here`, end);
      return addLive({ line, idRaw, tool, sent: await ask(line), decision, tMs });
    }
    const answer = answerMcpCall({ decision, idRaw, transport: "mcp" });
    if (answer.type !== "line") throw new Error("record-missing serves no faults");
    const sent = step !== "local" ? await ask(line) : undefined;
    if (sent !== undefined) {
      const liveResult = resultOf(sent);
      if (step === "recorded" && answer.served !== undefined && liveResult !== undefined) core.learn(label, answer.served, liveResult);
      if (
        decision.kind === "mutation" &&
        core.compare({ decision, step, label, recorded: mcpOutcome(answer.line), live: mcpOutcome(sent), end }) === "diverge"
      ) {
        return addLive({ line, idRaw, tool, sent, decision, tMs });
      }
    }
    send(answer.line);
    session.record(decision, { tMs, ...(answer.served !== undefined ? { served: answer.served } : {}) });
    counts.served++;
    core.served(decision.exchange, decision.epochBefore);
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
        live.close();
        await Promise.race([live.ended, new Promise((resolve) => setTimeout(resolve, LIVE_END_MS).unref())]);
        session.closeStream("mcp", stream);
        if (!gone) io.exit(0);
        markDone();
      }),
    gone: () => {
      gone = true;
      live.gone();
      markDone();
    },
  };
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
