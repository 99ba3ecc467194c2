import { describe, expect, it } from "vitest";
import type { CassetteEvent } from "#src/schema/cassette.js";
import { answerCli } from "#src/transports/cli/answer.js";
import { createEngine } from "./engine.js";
import { prepareCassette } from "./prepared.js";
import { cliRequest, type ReplayRequest } from "./request.js";
import { ACTION, at, call, look, WINDOW } from "../../../test/helpers/hand-built-looks.js";

// The replay's model of the driver's state where a refusal, a re-read or overlapping CLI calls take
// the harness past what the recording shows (docs/matching.md). Every cassette here is hand-built.

const REFUSED =
  '{"content":[{"text":"refused","type":"text"}],"isError":true,"structuredContent":{"refusal":{"code":"key_combo_blocked","message":"blocked"}}}';

/** An MCP cassette of these calls and results in this order. */
function mcpCassette(calls: readonly (readonly [string, Record<string, unknown>, string])[]): CassetteEvent[] {
  const events: CassetteEvent[] = [];
  calls.forEach(([tool, args, result], i) => {
    const id = i + 1;
    const base = { t_ms: id, origin: "harness", kind: "mcp", stream: 0 };
    events.push({
      ...base,
      seq: events.length,
      dir: "c2s",
      line: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: args } }),
    } as CassetteEvent);
    events.push({ ...base, seq: events.length, dir: "s2c", line: `{"jsonrpc":"2.0","id":${id},"result":${result}}` } as CassetteEvent);
  });
  return events;
}

/** A per-call CLI event. */
const cli = (
  seq: number,
  argv: string[],
  out: { stdout?: string; stderr?: string; exit?: number | null; t?: number; ms?: number; start?: number },
): CassetteEvent =>
  ({
    seq,
    t_ms: out.t ?? seq,
    origin: "harness",
    kind: "cli",
    duration_ms: out.ms ?? 1,
    argv,
    stdout: out.stdout ?? "",
    stderr: out.stderr ?? "",
    exit_code: out.exit === undefined ? 0 : out.exit,
    ...(out.start !== undefined ? { start_seq: out.start } : {}),
  }) as CassetteEvent;

/** Decide and log a request as a transport would (what was served is what the state model learns). */
function serve(engine: ReturnType<typeof createEngine>, request: ReplayRequest) {
  const d = engine.decide(request);
  const served = d.exchange ? answerCli({ decision: d }) : undefined;
  const raw = served?.type === "output" ? served.served : undefined;
  return { d, served, entry: engine.entry(d, { tMs: 0, ...(raw !== undefined ? { served: raw } : {}) }) };
}

describe("a refused mutation leaves the epoch alone", () => {
  // look, a key combo the driver refuses, look again (the same state), click
  const REFUSAL_FLOW = mcpCassette([
    ["get_window_state", WINDOW, look("s00000001")],
    ["press_key", { ...WINDOW, key: "ctrl+alt+delete" }, REFUSED],
    ["get_window_state", WINDOW, look("s00000002")],
    ["click", { ...WINDOW, element_token: "s00000002:1" }, ACTION],
    ["get_window_state", WINDOW, look("s00000003")],
  ]);

  it("in the preparation: the look after a recorded refusal is in the refusal's epoch", () => {
    const { exchanges } = prepareCassette({ events: REFUSAL_FLOW });
    expect(exchanges.map((x) => [x.request.tool, x.epoch])).toEqual([
      ["get_window_state", 0],
      ["press_key", 0],
      ["get_window_state", 0],
      ["click", 0],
      ["get_window_state", 1],
    ]);
  });

  it("in the replay: the recorded refusal is consumed, the epoch stays, and the click after it moves it", () => {
    const engine = createEngine({ events: REFUSAL_FLOW });
    serve(engine, call("get_window_state", WINDOW));
    const refused = serve(engine, call("press_key", { ...WINDOW, key: "ctrl+alt+delete" }));
    expect(refused.entry).toMatchObject({
      outcome: "replayed",
      matched_seq: 2,
      epoch_before: 0,
      epoch_after: 0,
      result: { refusal_code: "key_combo_blocked" },
    });
    expect(serve(engine, call("get_window_state", WINDOW)).entry).toMatchObject({ matched_seq: 4, epoch_after: 0 });
    expect(serve(engine, call("click", { ...WINDOW, element_token: "s00000002:1" })).entry).toMatchObject({ matched_seq: 6, epoch_before: 0, epoch_after: 1 });
    expect(engine.summary(0)).toMatchObject({ unmatched: 0, unused: [] });
  });

  it("a call the driver refused before doing anything (a tool without a risk classification, an unknown tool) changes nothing", () => {
    const denied = "Permission denied: tool 'screenshot' has no reviewed risk classification\n";
    const events = [
      cli(0, ["call", "list_windows", "{}"], { stdout: '{\n  "windows": []\n}\n' }),
      cli(1, ["call", "screenshot", "{}"], { stderr: denied, exit: 1 }),
      cli(2, ["call", "no_such_tool_xyz", "{}"], { stderr: "Permission denied: tool 'no_such_tool_xyz' has no reviewed risk classification\n", exit: 1 }),
      cli(3, ["call", "list_windows", "{}"], { stdout: '{\n  "windows": [{"window_id": 1}]\n}\n' }),
    ];
    const { exchanges } = prepareCassette({ events });
    expect(exchanges.map((x) => [x.kind, x.epoch])).toEqual([
      ["read", 0],
      ["mutation", 0],
      ["mutation", 0],
      ["read", 0],
    ]);
    const engine = createEngine({ events });
    serve(engine, cliRequest({ argv: ["call", "list_windows", "{}"] }));
    for (const tool of ["screenshot", "no_such_tool_xyz"]) {
      const d = serve(engine, cliRequest({ argv: ["call", tool, "{}"] })).d;
      expect([d.outcome, d.epochBefore, d.epochAfter]).toEqual(["replayed", 0, 0]);
    }
    // the state after them is the one before: the second recorded read of epoch 0, no fallback
    expect(serve(engine, cliRequest({ argv: ["call", "list_windows", "{}"] })).entry).toMatchObject({ matched_seq: 3, epoch_before: 0 });
  });

  it("over MCP, an unknown tool answered with an error result or a JSON-RPC error changes nothing either", () => {
    const events = mcpCassette([
      ["list_windows", {}, '{"content":[{"text":"Found 0 windows","type":"text"}],"structuredContent":{"windows":[]}}'],
      ["no_such_tool_xyz", {}, '{"content":[{"text":"Unknown tool: no_such_tool_xyz","type":"text"}],"isError":true}'],
      ["other_unknown_tool", {}, "null"],
      ["list_windows", {}, '{"content":[{"text":"Found 0 windows","type":"text"}],"structuredContent":{"windows":[]}}'],
    ]);
    // the third call's answer is a JSON-RPC error, not a result
    const line = events[5]!.kind === "mcp" ? events[5]! : undefined;
    if (line) line.line = '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Unknown tool: other_unknown_tool"}}';
    expect(prepareCassette({ events }).exchanges.map((x) => [x.kind, x.epoch])).toEqual([
      ["read", 0],
      ["mutation", 0],
      ["mutation", 0],
      ["read", 0],
    ]);
  });

  it("a timeout or a death of the daemon mid-call is no refusal: the call may have taken effect, so its epoch ends", () => {
    const events = [
      cli(0, ["call", "click", '{"pid":7,"window_id":70,"x":1,"y":1}'], {
        stderr: "Error: daemon request failed: timed out after 120s waiting for daemon response (received 0 bytes so far)\n",
        exit: 1,
      }),
      cli(1, ["call", "list_windows", "{}"], { stdout: '{\n  "windows": []\n}\n' }),
    ];
    expect(prepareCassette({ events }).exchanges.map((x) => x.epoch)).toEqual([0, 1]);
  });
});

// look, type, look again, click the row from the second look, look again
const FLOW = mcpCassette([
  ["get_window_state", WINDOW, look("s00000001")],
  ["type_text", { ...WINDOW, text: "hi" }, ACTION],
  ["get_window_state", WINDOW, look("s00000002")],
  ["click", { ...WINDOW, element_token: "s00000002:1" }, ACTION],
  ["get_window_state", WINDOW, look("s00000003")],
]);

describe("a read the recording did not hold", () => {
  it("after a stale refusal, is a fresh look (new snapshot id, new tokens) and the refused look's tokens stay refused", () => {
    const engine = createEngine({ events: FLOW, faults: at("click", 1, "refusal", { code: "stale_element_token" }) });
    for (const r of [call("get_window_state", WINDOW), call("type_text", { ...WINDOW, text: "hi" }), call("get_window_state", WINDOW)]) serve(engine, r);
    expect(serve(engine, call("click", { ...WINDOW, element_token: "s00000002:1" })).entry).toMatchObject({ outcome: "faulted", epoch_after: 1 });
    const again = serve(engine, call("get_window_state", WINDOW));
    expect(again.entry).toMatchObject({ outcome: "replayed", matched_seq: 4, synthesized: "fresh_look", epoch_after: 1 });
    expect(again.entry.basis).toMatchObject({ source: "cassette", seq: 4 });
    expect(again.entry.basis?.detail).toContain("s00000002");
    const stdout = again.served?.type === "output" && typeof again.served.stdout === "string" ? again.served.stdout : "";
    const fresh = /"snapshot_id": "(s[0-9a-f]{8})"/.exec(stdout)?.[1];
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe("s00000002");
    expect(stdout).toContain(`"element_token": "${fresh}:1"`);
    expect(stdout).not.toContain("s00000002");
    // the token the driver refused is never honoured again
    const retry = serve(engine, call("click", { ...WINDOW, element_token: "s00000002:1" }));
    expect(retry.entry).toMatchObject({ synthesized: "stale_element_token", epoch_after: 1 });
    expect(retry.entry.matched_seq).toBeUndefined();
    // the same element through the fresh look is the recorded click
    const click = serve(engine, call("click", { ...WINDOW, element_token: `${fresh}:1` }));
    expect(click.entry).toMatchObject({ outcome: "replayed", matched_seq: 6, epoch_before: 1, epoch_after: 2 });
    expect(engine.summary(0)).toMatchObject({ unmatched: 0, unused: [] });
  });

  it("without a refusal, is a fresh look too, and only the newest look's tokens are honoured", () => {
    const engine = createEngine({ events: FLOW });
    const first = serve(engine, call("get_window_state", WINDOW));
    expect(first.entry.synthesized).toBeUndefined();
    const second = serve(engine, call("get_window_state", WINDOW));
    const third = serve(engine, call("get_window_state", WINDOW));
    const ids = [second, third].map((s) =>
      s.served?.type === "output" && typeof s.served.stdout === "string" ? /"snapshot_id": "(s[0-9a-f]{8})"/.exec(s.served.stdout)?.[1] : undefined,
    );
    expect(new Set(["s00000001", ...ids]).size).toBe(3);
    expect(third.entry).toMatchObject({ matched_seq: 0, synthesized: "fresh_look" });
    expect(serve(engine, call("type_text", { ...WINDOW, text: "hi" })).entry).toMatchObject({ matched_seq: 2, epoch_after: 1 });
    expect(serve(engine, call("get_window_state", WINDOW)).entry.synthesized).toBeUndefined();
  });

  it("a fresh look's token from an older epoch still names the recorded element", () => {
    const engine = createEngine({ events: FLOW });
    serve(engine, call("get_window_state", WINDOW));
    serve(engine, call("type_text", { ...WINDOW, text: "hi" }));
    serve(engine, call("get_window_state", WINDOW));
    const again = serve(engine, call("get_window_state", WINDOW));
    const stdout = again.served?.type === "output" && typeof again.served.stdout === "string" ? again.served.stdout : "";
    const fresh = /"snapshot_id": "(s[0-9a-f]{8})"/.exec(stdout)?.[1];
    expect(serve(engine, call("click", { ...WINDOW, element_token: "s00000002:1" })).entry).toMatchObject({ synthesized: "stale_element_token" });
    expect(serve(engine, call("click", { ...WINDOW, element_token: `${fresh}:1` })).entry).toMatchObject({
      outcome: "replayed",
      matched_seq: 6,
      epoch_after: 2,
    });
  });
});

describe("a recording whose driver gave two reads the same snapshot id", () => {
  // a driver double that does not make a new snapshot per read: the recording is the truth
  const SAME_ID = mcpCassette([
    ["get_window_state", WINDOW, look("s00000001")],
    [
      "click",
      { ...WINDOW, element_token: "s00000001:1" },
      '{"content":[{"text":"stale","type":"text"}],"isError":true,"structuredContent":{"refusal":{"code":"stale_element_token","message":"stale"}}}',
    ],
    ["get_window_state", WINDOW, look("s00000001")],
    ["click", { ...WINDOW, element_token: "s00000001:1" }, ACTION],
  ]);

  it("replays both reads as recorded, and the click the recording made after the second one is accepted", () => {
    const engine = createEngine({ events: SAME_ID });
    serve(engine, call("get_window_state", WINDOW));
    expect(serve(engine, call("click", { ...WINDOW, element_token: "s00000001:1" })).entry).toMatchObject({
      matched_seq: 2,
      result: { refusal_code: "stale_element_token" },
      epoch_after: 0,
    });
    const again = serve(engine, call("get_window_state", WINDOW));
    expect(again.entry).toMatchObject({ matched_seq: 4 });
    expect(again.entry.synthesized).toBeUndefined();
    expect(serve(engine, call("click", { ...WINDOW, element_token: "s00000001:1" })).entry).toMatchObject({
      outcome: "replayed",
      matched_seq: 6,
      epoch_after: 1,
    });
    expect(engine.summary(0)).toMatchObject({ unmatched: 0, synthesized: 0, unused: [] });
  });
});

describe("overlapping per-call CLI calls", () => {
  // `serve` in the background, then `serve` again: the second one finished (and was written) first
  const ALREADY = "Error: a daemon is already running on /tmp/cua.sock\n";
  const overlapping = (withStart: boolean): CassetteEvent[] => [
    cli(0, ["serve"], { stderr: ALREADY, exit: 1, t: 50, ms: 2, ...(withStart ? { start: 1 } : {}) }),
    cli(1, ["serve"], { stderr: "", exit: null, t: 10, ms: 900, ...(withStart ? { start: 0 } : {}) }),
  ];

  it("are matched in the order they started when the cassette records it", () => {
    const engine = createEngine({ events: overlapping(true) });
    expect(engine.decide(cliRequest({ argv: ["serve"] })).exchange?.seq).toBe(1);
    expect(engine.decide(cliRequest({ argv: ["serve"] })).exchange?.seq).toBe(0);
    expect(prepareCassette({ events: overlapping(true) }).notes).toEqual([]);
  });

  it("a call without start_seq (added later by record-missing) stays in its place; the others are put in start order around it", () => {
    const events = [
      cli(0, ["call", "get_screen_size", "{}"], { stdout: "{}\n", t: 10, start: 1 }),
      cli(1, ["call", "get_config", "{}"], { stdout: "{}\n", t: 10 }),
      cli(2, ["call", "list_windows", "{}"], { stdout: '{\n  "windows": []\n}\n', t: 0, start: 0 }),
    ];
    const { exchanges, notes } = prepareCassette({ events });
    expect(exchanges.map((x) => x.seq)).toEqual([2, 1, 0]);
    expect(notes).toEqual([]);
  });

  it("keep the order they finished in when it does not, and the preparation says so", () => {
    const engine = createEngine({ events: overlapping(false) });
    expect(engine.decide(cliRequest({ argv: ["serve"] })).exchange?.seq).toBe(0);
    const { notes } = prepareCassette({ events: overlapping(false) });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/overlapped.*start_seq.*order they finished/);
  });
});
