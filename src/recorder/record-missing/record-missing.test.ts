// record-missing against a scripted live desktop whose pids, window ids and snapshot numbers are
// not the recording's: the ids the live driver gets, the ids the harness sees, where the added calls
// go, and that a plain replay of the grown cassette answers the changed harness byte for byte.
import { answering } from "../../../test/helpers/answering.js";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createRedactor } from "#src/cassette/redact.js";
import { readCassetteSync } from "#src/cassette/reader.js";
import { recordCliCall } from "#src/transports/cli/tap.js";
import { startClock } from "#src/transports/recording/recording-parts.js";
import { openMcpStreamRecording } from "#src/transports/mcp/stream-recording.js";
import { createRecordingSink } from "#src/cassette/recording-sink.js";
import type { CliRequest, CliResponse, McpIo, McpSessionHandler } from "#src/shim-server/backend.js";
import { createReplayBackend } from "#src/transports/cli/replay-backend.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { createReplaySession } from "#src/replay/session.js";
import { systemClock } from "#src/runtime/clock-system.js";
import { openRecordMissing } from "./record-missing.js";
import { scriptedDesktop, type ScriptedDesktop } from "../../../test/helpers/scripted-desktop.js";
import { tmpDir } from "../../../test/helpers/tmp-dir.js";

type Send = (argv: string[]) => Promise<CliResponse>;
/** One tool call as the harness makes it: what it was answered (the bytes), and the structured answer it reads. */
type Call = (tool: string, args: Record<string, unknown>, shot: boolean) => Promise<{ seen: string; structured: Record<string, unknown> }>;
type Variant = "base" | "grown" | "diverged" | "stale";

const RECORDED = { pid: 4242, window: 77 };
const LIVE = { pid: 9001, window: 555 };

/** Per-call CLI: `cua-driver call TOOL JSON [--screenshot-out-file shot.png]`. */
const overCli =
  (send: Send): Call =>
  async (tool, args, shot) => {
    const r = await send(["call", tool, JSON.stringify(args), ...(shot ? ["--screenshot-out-file", "shot.png"] : [])]);
    const stdout = r.stdout.toString("utf8");
    return { seen: `${tool} → ${r.exitCode} ${stdout}`, structured: JSON.parse(stdout) as Record<string, unknown> };
  };

/** One MCP stream: `tools/call` lines with ids counting up, the answer line as the harness got it. */
function overMcp(open: (io: McpIo) => McpSessionHandler): Call & { end(): Promise<void> } {
  const waiting = new Map<number, (line: string) => void>();
  let ended: () => void = () => {};
  const closed = new Promise<void>((resolve) => (ended = resolve));
  const handler = open({
    send: (line) => waiting.get((JSON.parse(line) as { id: number }).id)?.(line),
    stderr: () => {},
    exit: () => ended(),
  });
  let id = 0;
  const request = (method: string, params?: unknown) =>
    new Promise<string>((resolve) => {
      const n = ++id;
      waiting.set(n, resolve);
      handler.line(JSON.stringify({ jsonrpc: "2.0", id: n, method, ...(params ? { params } : {}) }));
    });
  const started = request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } });
  const call = async (tool: string, args: Record<string, unknown>) => {
    await started;
    const line = await request("tools/call", { name: tool, arguments: args });
    return { seen: line, structured: (JSON.parse(line) as { result: { structuredContent: Record<string, unknown> } }).result.structuredContent };
  };
  return Object.assign(call, { end: () => (handler.end(), closed) });
}

/** The harness under test: it aims from what it is answered (window, element tokens), as a real one does. */
async function flow(variant: Variant, callTool: Call): Promise<string[]> {
  const seen: string[] = [];
  const call = async (tool: string, args: Record<string, unknown>, shot = false) => {
    const r = await callTool(tool, args, shot);
    seen.push(r.seen);
    return r.structured;
  };
  const grown = variant !== "base";
  const session = { session: "t" };
  await call("start_session", session);
  if (grown && variant !== "stale") await call("get_screen_size", {});
  const [win] = (await call("list_windows", {})).windows as { pid: number; window_id: number }[];
  const target = { pid: win!.pid, window_id: win!.window_id, ...session };
  await call("get_window_state", target, true);
  await call("type_text", { ...target, text: "hello" });
  if (grown && variant !== "stale") await call("get_window_state", { ...target, query: "Se" }, true);
  await call("list_windows", {});
  const second = await call("get_window_state", target, true);
  // a look after the one the click aims from: the live driver no longer honours that token
  if (variant === "stale") await call("get_window_state", { ...target, query: "Op" }, true);
  const open = (second.elements as { label: string; element_token: string }[]).find((e) => e.label === "Open")!;
  await call("click", { ...target, element_token: open.element_token });
  await call("list_windows", {});
  await call("get_window_state", target, true);
  if (grown && variant !== "stale") await call("get_screen_size", {});
  if (variant === "diverged") {
    await call("set_window_frame", { ...target, x: 5, y: 6, width: 700, height: 500 });
    await call("list_windows", {});
  }
  await call("end_session", session);
  return seen;
}

const request = (cwd: string, argv: string[]): CliRequest => ({ argv, stdin: Buffer.alloc(0), cwd, env: { HOME: cwd }, signal: new AbortController().signal });

/** Records the base flow from a scripted desktop with the recorder's own per-call code. */
async function recordBase(dir: string, cwd: string, desktop: ScriptedDesktop): Promise<void> {
  const sink = createRecordingSink({
    dir,
    header: {
      format: "cua-cassette",
      version: 1,
      driver: { ...desktop.info },
      recorded_at: new Date().toISOString(),
      recorder: { name: "cua-contract", version: "test" },
      redaction: { enabled: true },
    },
    append: false,
    force: false,
  });
  const parts = { sink, redactor: createRedactor({ enabled: true }), clock: startClock() };
  await flow(
    "base",
    overCli((argv) =>
      recordCliCall({ ...parts, request: request(cwd, argv), live: answering(async (r) => ({ response: await desktop.cli(r), recorded: true })) }),
    ),
  );
  sink.close();
}

/** Records the base flow over one MCP stream, line by line, with the recorder's own stream recording. */
async function recordBaseMcp(dir: string, desktop: ScriptedDesktop): Promise<void> {
  const sink = createRecordingSink({
    dir,
    header: {
      format: "cua-cassette",
      version: 1,
      driver: { ...desktop.info },
      recorded_at: new Date().toISOString(),
      recorder: { name: "cua-contract", version: "test" },
      redaction: { enabled: true },
    },
    append: false,
    force: false,
  });
  const parts = { sink, redactor: createRedactor({ enabled: true }), clock: startClock() };
  const recording = openMcpStreamRecording({ ...parts, stream: 0, argv: ["mcp"] });
  const client = overMcp((io) => {
    const inner = desktop.mcp!({ argv: ["mcp"], cwd: "/", env: {} }, { ...io, send: (line) => (recording.line("s2c", line), io.send(line)) });
    return { line: (line) => (recording.line("c2s", line), inner.line(line)), end: () => (recording.close(0), inner.end()) };
  });
  await flow("base", client);
  await client.end();
  sink.close();
}

const mcpInit = { argv: ["mcp"], cwd: "/", env: {} };

/** Plain replay of a cassette to a flow: what the harness was answered, and the summary. */
async function replayFlow(dir: string, cwd: string, variant: Variant) {
  const session = createReplaySession({ cassette: loadReplayCassette(dir), clock: systemClock });
  const backend = createReplayBackend({ session });
  const seen = await flow(
    variant,
    overCli((argv) => backend.cli(request(cwd, argv))),
  );
  const summary = session.finish();
  const requests = session.entries().flatMap((e) => (e.type === "request" ? [e] : []));
  return { seen, summary, requests };
}

/** The MCP lines of a cassette: each request's tool (or method), `+` when added; answers as `←`. */
const mcpTools = (dir: string) =>
  readCassetteSync(dir).events.flatMap((e) => {
    if (e.kind === "mcp_close") return [`close${e.added ? "+" : ""}`];
    if (e.kind !== "mcp" || typeof e.line !== "string") return [];
    const m = JSON.parse(e.line) as { method?: string; params?: { name?: string } };
    if (e.dir === "s2c") return ["←"];
    return m.method === "tools/call" ? [`${m.params?.name}${e.added ? "+" : ""}`] : [m.method!];
  });

const tools = (dir: string) => readCassetteSync(dir).events.map((e) => (e.kind === "cli" ? `${e.argv[1]}${e.added ? "+" : ""}` : e.kind));

async function setup() {
  const tmp = await tmpDir();
  const dir = path.join(tmp.path, "cassette");
  await recordBase(dir, tmp.path, scriptedDesktop(RECORDED));
  const live = scriptedDesktop({ ...LIVE, firstSnapshot: 1 });
  return { tmp, dir, live };
}

async function growWith(o: { dir: string; cwd: string; live: ScriptedDesktop; variant: Variant }) {
  const run = await openRecordMissing({ dir: o.dir, driver: o.live, env: {}, shim: "node" });
  const seen = await flow(
    o.variant,
    overCli((argv) => run.cli(request(o.cwd, argv))),
  );
  return { seen, summary: await run.finish() };
}

describe("record-missing (scripted live desktop)", () => {
  it("sends the live driver its own ids and answers the harness in the recorded ones", async () => {
    const { tmp, dir, live } = await setup();
    await using _t = tmp;
    const { seen, summary } = await growWith({ dir, cwd: tmp.path, live, variant: "grown" });
    // every call that names a window went live with the live desktop's pid and window id
    const targeted = live.calls.filter((c) => "pid" in c.args);
    expect(targeted.length).toBe(6);
    expect(new Set(targeted.map((c) => `${String(c.args.pid)}/${String(c.args.window_id)}`))).toEqual(new Set([`${LIVE.pid}/${LIVE.window}`]));
    // the click aimed from the recorded second look (s00000002) reached the live one: the live desktop took a look more by then
    expect(live.calls.find((c) => c.tool === "click")!.args.element_token).toBe("s00000003:0");
    // the harness only ever saw recorded ids, in answers from the cassette and from the live driver alike
    const text = seen.join("\n");
    expect(text).not.toContain(String(LIVE.pid));
    expect(text).not.toContain(String(LIVE.window));
    expect(text).toContain(`window_id=${RECORDED.window} pid=${RECORDED.pid}`);
    // the added look got a snapshot id the recording never used (its live s00000002 is the recording's second look)
    const added = seen.find((s) => s.includes('"Search"') && !s.includes('"Open"'))!;
    expect(added).toContain('"snapshot_id": "s00000004"');
    expect(summary).toMatchObject({ served: 10, added: 3, forwarded: 13, ids: { pid: 1, window: 2, snapshot: 4, fresh: 1 } });
    expect(summary.divergence).toBeUndefined();
  });

  it("puts each added call where it happened, keeps the recorded lines byte for byte and marks the additions", async () => {
    const { tmp, dir, live } = await setup();
    await using _t = tmp;
    const before = readFileSync(path.join(dir, "cassette.jsonl"), "utf8").split("\n").slice(1).filter(Boolean);
    await growWith({ dir, cwd: tmp.path, live, variant: "grown" });
    expect(tools(dir)).toEqual([
      "start_session",
      "get_screen_size+",
      "list_windows",
      "get_window_state",
      "type_text",
      "get_window_state+",
      "list_windows",
      "get_window_state",
      "click",
      "list_windows",
      "get_window_state",
      "get_screen_size+",
      "end_session",
    ]);
    const after = readFileSync(path.join(dir, "cassette.jsonl"), "utf8").split("\n").slice(1).filter(Boolean);
    expect(after.filter((l) => !l.includes('"added":'))).toEqual(before);
    const cassette = readCassetteSync(dir);
    expect(cassette.header.additions).toEqual([
      {
        by: "record-missing",
        at: expect.any(String),
        driver: { version: "0.21.0", platform: `${process.platform}-${process.arch}`, source: "synthetic", location: "scripted-desktop" },
        events: 3,
        dropped: 0,
      },
    ]);
    const addedEvents = cassette.events.filter((e) => e.added);
    expect(addedEvents.map((e) => e.seq)).toEqual([10, 11, 12]);
    expect(addedEvents.every((e) => e.added?.source === "synthetic" && e.origin === "harness")).toBe(true);
    // the added look's screenshot is a frame like any recorded one
    const look = addedEvents[1]!;
    expect(look.kind === "cli" && look.files?.["--screenshot-out-file"]?.ref).toMatch(/^frames\/[0-9a-f]{64}\.png$/);
    expect(cassette.frameStats.missing).toEqual([]);
  });

  it("a plain replay of the grown cassette answers the changed harness as record-missing did, and the old one still", async () => {
    const { tmp, dir, live } = await setup();
    await using _t = tmp;
    const grown = await growWith({ dir, cwd: tmp.path, live, variant: "grown" });
    const replayed = await replayFlow(dir, tmp.path, "grown");
    expect(replayed.summary).toMatchObject({ unmatched: 0, served: 13, unused: [] });
    expect(replayed.seen).toEqual(grown.seen);
    // each added call is answered from its own epoch, not from an earlier one
    expect(replayed.requests.filter((r) => r.fallback_epoch !== undefined)).toEqual([]);
    const addedSeqs = readCassetteSync(dir)
      .events.filter((e) => e.added)
      .map((e) => e.seq);
    expect(replayed.requests.filter((r) => addedSeqs.includes(r.matched_seq ?? -1)).map((r) => [r.tool, r.epoch_before])).toEqual([
      ["get_screen_size", 0],
      ["get_window_state", 1],
      ["get_screen_size", 2],
    ]);
    const old = await replayFlow(dir, tmp.path, "base");
    expect(old.summary).toMatchObject({ unmatched: 0, unused: [] });
  });

  it("nothing missing: the cassette is left alone", async () => {
    const { tmp, dir, live } = await setup();
    await using _t = tmp;
    const before = readFileSync(path.join(dir, "cassette.jsonl"));
    const { summary } = await growWith({ dir, cwd: tmp.path, live, variant: "base" });
    expect(summary).toMatchObject({ served: 10, added: 0, forwarded: 10 });
    expect(readFileSync(path.join(dir, "cassette.jsonl")).equals(before)).toBe(true);
  });

  it("a mutation the recording never made goes at the end of its epoch, and everything after it follows it", async () => {
    const { tmp, dir, live } = await setup();
    await using _t = tmp;
    const grown = await growWith({ dir, cwd: tmp.path, live, variant: "diverged" });
    expect(grown.summary.divergence).toMatchObject({ n: 12, dropped: 0 });
    expect(grown.summary.divergence!.reason).toContain("set_window_frame is a mutation the cassette does not have here");
    expect(tools(dir).slice(-5)).toEqual(["get_screen_size+", "end_session", "set_window_frame+", "list_windows+", "end_session+"]);
    // the move reached the live desktop with its own window id, and the readback is the live one, in recorded ids
    expect(live.calls.find((c) => c.tool === "set_window_frame")!.args).toMatchObject({ pid: LIVE.pid, window_id: LIVE.window });
    expect(grown.seen.at(-2)).toContain('"x": 5');
    expect(grown.seen.at(-2)).toContain(`"window_id": ${RECORDED.window}`);
    const replayed = await replayFlow(dir, tmp.path, "diverged");
    expect(replayed.summary).toMatchObject({ unmatched: 0 });
    expect(replayed.seen).toEqual(grown.seen);
  });

  it("a recorded mutation the live driver now refuses starts another history; the recorded rest is left out and kept aside", async () => {
    const { tmp, dir } = await setup();
    await using _t = tmp;
    const live = scriptedDesktop({ ...LIVE, refuse: { tool: "click", code: "element_not_visible" } });
    const original = readFileSync(path.join(dir, "cassette.jsonl"), "utf8");
    const grown = await growWith({ dir, cwd: tmp.path, live, variant: "base" });
    expect(grown.summary.divergence!.reason).toBe(
      "#6 click: the live driver refused element_not_visible where the cassette says accepted (effect unverifiable)",
    );
    expect(grown.seen.find((s) => s.startsWith("click"))).toContain("element_not_visible");
    expect(grown.summary).toMatchObject({ added: 4, divergence: { dropped: 4 } });
    expect(tools(dir)).toEqual([
      "start_session",
      "list_windows",
      "get_window_state",
      "type_text",
      "list_windows",
      "get_window_state",
      "click+",
      "list_windows+",
      "get_window_state+",
      "end_session+",
    ]);
    const backup = grown.summary.divergence!.backup!;
    expect(readFileSync(backup, "utf8")).toBe(original);
    expect(readCassetteSync(dir).header.additions?.[0]).toMatchObject({ events: 4, dropped: 4, backup: path.basename(backup) });
    const replayed = await replayFlow(dir, tmp.path, "base");
    expect(replayed.summary).toMatchObject({ unmatched: 0 });
    expect(replayed.seen).toEqual(grown.seen);
  });

  it("a token the replay's driver model no longer honours is refused as the driver would, and never sent live", async () => {
    const { tmp, dir, live } = await setup();
    await using _t = tmp;
    const grown = await growWith({ dir, cwd: tmp.path, live, variant: "stale" });
    expect(grown.seen.find((s) => s.startsWith("click"))).toContain("stale_element_token");
    expect(live.calls.map((c) => c.tool)).not.toContain("click");
    expect(grown.summary).toMatchObject({ added: 1 });
    expect(grown.summary.divergence).toBeUndefined();
    const replayed = await replayFlow(dir, tmp.path, "stale");
    expect(replayed.summary).toMatchObject({ unmatched: 0 });
    expect(replayed.seen).toEqual(grown.seen);
  });

  it("refuses under CI=true unless allowed, a live driver of another version, and a cassette recorded with faults", async () => {
    const { tmp, dir, live } = await setup();
    await using _t = tmp;
    await expect(openRecordMissing({ dir, driver: live, env: { CI: "true" } })).rejects.toThrow(
      /--record-missing: record-missing is refused when CI=true: it sends the harness's calls to a live driver and rewrites the cassette.*--allow-in-ci/,
    );
    const allowed = await openRecordMissing({ dir, driver: live, env: { CI: "true" }, allowInCi: true, shim: "node" });
    await allowed.abort();
    const newer = { ...live, info: { ...live.info, version: "0.28.2" } };
    await expect(openRecordMissing({ dir, driver: newer, env: {} })).rejects.toThrow(
      /recorded from cua-driver 0\.21\.0; the live driver is 0\.28\.2.*--driver sdk:0\.21\.0/,
    );
    const file = path.join(dir, "cassette.jsonl");
    const [head, ...rest] = readFileSync(file, "utf8").split("\n");
    writeFileSync(file, [JSON.stringify({ ...JSON.parse(head!), faults: { plan: { rules: [] } } }), ...rest].join("\n"));
    await expect(openRecordMissing({ dir, driver: live, env: {} })).rejects.toThrow(/was recorded with --faults/);
  });
});

describe("record-missing over one MCP stream (scripted live desktop)", () => {
  async function setupMcp() {
    const tmp = await tmpDir();
    const dir = path.join(tmp.path, "cassette");
    await recordBaseMcp(dir, scriptedDesktop(RECORDED));
    return { tmp, dir, live: scriptedDesktop(LIVE) };
  }
  async function grow(dir: string, live: ScriptedDesktop, variant: Variant) {
    const run = await openRecordMissing({ dir, driver: live, env: {}, shim: "node" });
    const client = overMcp((io) => run.mcp(mcpInit, io));
    const seen = await flow(variant, client);
    await client.end();
    return { seen, summary: await run.finish() };
  }
  async function replayMcp(dir: string, variant: Variant) {
    const session = createReplaySession({ cassette: loadReplayCassette(dir), clock: systemClock });
    const client = overMcp((io) => createReplayBackend({ session }).mcp(mcpInit, io));
    const seen = await flow(variant, client);
    await client.end();
    return { seen, summary: session.finish() };
  }

  it("translates the ids both ways, adds request and answer lines to the recorded stream where they happened, and replays line for line", async () => {
    const { tmp, dir, live } = await setupMcp();
    await using _t = tmp;
    const grown = await grow(dir, live, "grown");
    expect(new Set(live.calls.filter((c) => "pid" in c.args).map((c) => `${String(c.args.pid)}/${String(c.args.window_id)}`))).toEqual(
      new Set([`${LIVE.pid}/${LIVE.window}`]),
    );
    expect(live.calls.find((c) => c.tool === "click")!.args.element_token).toBe("s00000003:0");
    const text = grown.seen.join("\n");
    expect(text).not.toContain(String(LIVE.pid));
    expect(text).toContain(`answered for pid ${RECORDED.pid}`); // an id inside the text block of an added answer
    expect(grown.summary).toMatchObject({ added: 3, ids: { pid: 1, snapshot: 4, fresh: 1 } });
    expect(mcpTools(dir)).toEqual([
      "initialize",
      "←",
      "start_session",
      "←",
      "get_screen_size+",
      "←",
      "list_windows",
      "←",
      "get_window_state",
      "←",
      "type_text",
      "←",
      "get_window_state+",
      "←",
      "list_windows",
      "←",
      "get_window_state",
      "←",
      "click",
      "←",
      "list_windows",
      "←",
      "get_window_state",
      "←",
      "get_screen_size+",
      "←",
      "end_session",
      "←",
      "close",
    ]);
    const replayed = await replayMcp(dir, "grown");
    expect(replayed.summary).toMatchObject({ unmatched: 0 });
    expect(replayed.seen).toEqual(grown.seen);
  });

  it("another history on the stream: the recorded end of the stream moves after the lines added to it", async () => {
    const { tmp, dir } = await setupMcp();
    await using _t = tmp;
    const grown = await grow(dir, scriptedDesktop({ ...LIVE, refuse: { tool: "click", code: "element_not_visible" } }), "base");
    expect(grown.summary).toMatchObject({ added: 4, divergence: { dropped: 9 } });
    expect(mcpTools(dir).slice(-11)).toEqual([
      "get_window_state",
      "←",
      "click+",
      "←",
      "list_windows+",
      "←",
      "get_window_state+",
      "←",
      "end_session+",
      "←",
      "close+",
    ]);
    const replayed = await replayMcp(dir, "base");
    expect(replayed.summary).toMatchObject({ unmatched: 0 });
    expect(replayed.seen).toEqual(grown.seen);
  });
});
