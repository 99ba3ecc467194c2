// The replay stand-ins' contract (src/driver/stand-in.ts), run against the replay of every transport: per-call CLI,
// MCP stdio, MCP over HTTP and in-process. Each is driven through its own raw form over the same
// real recording (recordings/gtk3-demo-mcp, 0.21.0 under Xvfb) and must agree on what the driver
// answered, what it refuses, what a call that never returns holds up, and what the log says.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createVirtualClock } from "#src/driver/clock-virtual.js";
import { isTransportFailure, type Reply } from "#src/driver/port.js";
import { createReplayer } from "#src/replay/replayer.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { createReplaySession } from "#src/replay/session.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";
import type { ReplayLogEntry, ReplayTransport, RequestEntry } from "#src/schema/replay-log.js";
import type { CliRequest, CliResponse } from "#src/shim-server/backend.js";
import { cliFront } from "#src/transports/cli/replay-backend.js";
import type { StandInReply, StandIn } from "#src/driver/stand-in.js";
import { inprocessFront, type InprocessRequest } from "#src/transports/inprocess/front.js";
import { mcpFront } from "#src/transports/mcp/front.js";
import { parseCallStdout } from "#src/transports/cli/wire/stdout.js";
import { repoRoot } from "../helpers/run-cli.js";

const CASSETTE = path.join(repoRoot, "recordings/gtk3-demo-mcp");

/** What a harness reads from an answer, whatever the transport. */
type Read = { kind: "result"; structured: Record<string, unknown> | undefined; text: string; isError: boolean } | { kind: "failure"; what: string };

/** One front, with how a harness puts a call in its raw form and reads the answer back. */
interface Implementation<Request, Answer> {
  name: string;
  /** Whether a call that never returns holds up the later requests of its connection (one request at a time). */
  oneAtATime: boolean;
  make(faults?: FaultPlan): { front: StandIn<Request, Answer>; entries(): ReplayLogEntry[] };
  request(tool: string, args: Record<string, unknown>, id: number): Request;
  read(answer: Answer): Read;
}

const session = (faults?: FaultPlan) =>
  createReplaySession({ cassette: loadReplayCassette(CASSETTE), clock: createVirtualClock(), ...(faults ? { faults } : {}) });

const rpc = (tool: string, args: Record<string, unknown>, id: number) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: args } });

function readRpc(line: string): Read {
  const message = JSON.parse(line) as {
    result?: { structuredContent?: Record<string, unknown>; content?: { text?: string }[]; isError?: boolean };
    error?: { message: string };
  };
  if (message.error) return { kind: "failure", what: message.error.message };
  const r = message.result!;
  return { kind: "result", structured: r.structuredContent, text: (r.content ?? []).map((c) => c.text ?? "").join("\n"), isError: r.isError === true };
}

const cli: Implementation<CliRequest, CliResponse> = {
  name: "cli",
  oneAtATime: false,
  make(faults) {
    const s = session(faults);
    return { front: cliFront(s), entries: () => s.entries() };
  },
  request: (tool, args) => ({
    argv: ["call", tool, JSON.stringify(args)],
    stdin: Buffer.alloc(0),
    cwd: repoRoot,
    env: {},
    // the harness's own deadline: it kills the process after 50 ms
    signal: AbortSignal.timeout(50),
  }),
  read(answer) {
    if (answer.exitCode !== 0) return { kind: "failure", what: `exit ${answer.exitCode ?? answer.signal}: ${answer.stderr.toString("utf8")}` };
    const result = parseCallStdout("?", answer.stdout.toString("utf8"));
    const text = result.content.map((c) => ("text" in c ? String(c.text) : "")).join("\n");
    return { kind: "result", structured: result.structuredContent, text, isError: result.isError === true };
  },
};

const mcpLike = (transport: "mcp" | "http"): Implementation<string, string> => ({
  name: transport,
  oneAtATime: true,
  make(faults) {
    const s = session(faults);
    return { front: mcpFront(s, transport), entries: () => s.entries() };
  },
  request: rpc,
  read: readRpc,
});

const inprocess: Implementation<InprocessRequest, Reply> = {
  name: "inprocess",
  oneAtATime: false,
  make(faults) {
    const replayer = createReplayer({ cassette: loadReplayCassette(CASSETTE), ...(faults ? { faults } : {}) });
    return { front: inprocessFront(replayer), entries: () => replayer.log() };
  },
  request: (tool, args) => ({ tool, args, options: { timeoutMs: 50 } }),
  read(reply) {
    if (isTransportFailure(reply)) return { kind: "failure", what: `${reply.kind}: ${reply.message ?? ""}` };
    const text = reply.content.map((c) => ("text" in c ? String(c.text) : "")).join("\n");
    return { kind: "result", structured: reply.structuredContent, text, isError: reply.isError === true };
  },
};

/** One replay stand-in per transport of the replay log: a transport without its entry fails the type-check. */
const BY_TRANSPORT: Record<ReplayTransport, Implementation<any, any>> = { cli, mcp: mcpLike("mcp"), http: mcpLike("http"), inprocess };
const IMPLEMENTATIONS = Object.values(BY_TRANSPORT);

/** The recorded answer to the first list_windows (event 11 of the recording). */
const RECORDED = readRpc(
  loadReplayCassette(CASSETTE)
    .cassette.events.flatMap((e) => (e.kind === "mcp" && e.dir === "s2c" && typeof e.line === "string" && e.line.includes('"id":4,') ? [e.line] : []))
    .at(0)!,
);

const requests = (entries: ReplayLogEntry[]) => entries.filter((e): e is RequestEntry => e.type === "request");

function answered<A>(reply: StandInReply<A>): A {
  expect(reply.type).toBe("answer");
  return (reply as { answer: A }).answer;
}

it("has one replay stand-in per transport, each under its own name", () => {
  expect(Object.entries(BY_TRANSPORT).map(([name, impl]) => [name, impl.make().front.transport])).toEqual(
    Object.keys(BY_TRANSPORT).map((name) => [name, name]),
  );
});

describe.each(IMPLEMENTATIONS)("replay front: $name", (impl) => {
  it("answers a recorded call with what the driver answered, and logs it as replayed on its transport", async () => {
    const { front, entries } = impl.make();
    const connection = front.open();
    const read = impl.read(answered(await connection.send(impl.request("list_windows", {}, 4))));
    connection.close();
    expect(RECORDED.kind).toBe("result");
    expect(read).toMatchObject({ kind: "result", isError: false, structured: (RECORDED as { structured: unknown }).structured });
    expect(requests(entries()).map((r) => [r.transport, r.tool, r.outcome])).toEqual([[front.transport, "list_windows", "replayed"]]);
  });

  it("refuses a tool the driver does not have as the driver does, without an unmatched request", async () => {
    const { front, entries } = impl.make();
    const connection = front.open();
    const read = impl.read(answered(await connection.send(impl.request("no_such_tool", {}, 1))));
    connection.close();
    const said = read.kind === "result" ? `${read.isError} ${read.text}` : read.what;
    expect(said).toMatch(/no_such_tool/);
    if (read.kind === "result") expect(read.isError).toBe(true);
    expect(requests(entries()).map((r) => r.outcome)).not.toContain("unmatched");
  });

  it("holds up, after a call that never returns, exactly what the transport holds up, and logs every request", async () => {
    const { front, entries } = impl.make({ rules: [{ match: { tool: "list_windows", nth: 1 }, fault: { kind: "hang" } }] });
    const connection = front.open();
    const first = await connection.send(impl.request("list_windows", {}, 4));
    const second = await connection.send(impl.request("get_screen_size", {}, 5));
    connection.close();
    if (impl.oneAtATime) {
      expect([first.type, second.type]).toEqual(["hang", "unanswered"]);
    } else {
      // each call stands alone: the hung one ends at the harness's deadline, the next is answered
      expect(impl.read(answered(first)).kind).toBe("failure");
      expect(second.type).toBe("answer");
    }
    const logged = requests(entries());
    expect(logged.map((r) => r.tool)).toEqual(["list_windows", "get_screen_size"]);
    expect(logged[0]!.fault?.kind).toBe("hang");
    if (impl.oneAtATime) expect(logged[1]!.outcome).toBe("unanswered");
  });

  it("closing a connection twice closes it once", async () => {
    const { front, entries } = impl.make();
    const connection = front.open();
    connection.close();
    connection.close();
    const streams = entries().filter((e) => e.type === "stream");
    expect(streams.filter((e) => e.type === "stream" && e.event === "close")).toHaveLength(impl.oneAtATime ? 1 : 0);
    expect(streams.filter((e) => e.type === "stream" && e.event === "open")).toHaveLength(impl.oneAtATime ? 1 : 0);
  });
});
