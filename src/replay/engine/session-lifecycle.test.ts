import { describe, expect, it } from "vitest";
import type { CassetteEvent } from "#src/schema/cassette.js";
import { answerMcpCall } from "#src/transports/mcp/answer.js";
import { answerCli } from "#src/transports/cli/answer.js";
import { answerInprocess } from "./answer-inprocess.js";
import { createEngine, type Decision } from "./engine.js";
import type { ReplayRequest } from "./request.js";

const RESULTS: Record<string, string> = {
  list_windows: '{"content":[{"text":"Found 1 windows","type":"text"}],"structuredContent":{"windows":[{"window_id":7}]}}',
  click: '{"content":[{"text":"Clicked.","type":"text"}],"structuredContent":{"effect":"unverifiable"}}',
  start_session: '{"content":[{"text":"ok","type":"text"}],"structuredContent":{"active":true,"revived":false,"session":"demo"}}',
  end_session: '{"content":[{"text":"ended","type":"text"}],"structuredContent":{"active":false,"session":"demo"}}',
  get_session: '{"content":[{"text":"s","type":"text"}],"structuredContent":{"session":"demo","state":"active"}}',
  type_text: '{"content":[{"text":"Typed 2 character(s)","type":"text"}]}',
};

/** An MCP cassette of these tool calls in this order (seq and ids in recorded order). */
function cassette(calls: readonly (readonly [string, Record<string, unknown>])[]): CassetteEvent[] {
  const events: CassetteEvent[] = [{ seq: 0, t_ms: 0, origin: "harness", kind: "mcp_open", stream: 0, argv: ["mcp"] } as CassetteEvent];
  calls.forEach(([tool, args], i) => {
    const id = i + 1;
    const line = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: args } });
    events.push({ seq: events.length, t_ms: id, origin: "harness", kind: "mcp", stream: 0, dir: "c2s", line } as CassetteEvent);
    events.push({
      seq: events.length,
      t_ms: id,
      origin: "harness",
      kind: "mcp",
      stream: 0,
      dir: "s2c",
      line: `{"jsonrpc":"2.0","id":${id},"result":${RESULTS[tool]}}`,
    } as CassetteEvent);
  });
  return events;
}

const call = (tool: string, args: Record<string, unknown> = {}): ReplayRequest => ({ transport: "inprocess", method: "call", tool, args });
const row = (d: Decision) => [d.request.tool, d.outcome, d.epochBefore, d.epochAfter, d.lifecycleEpoch ?? null, d.synthetic?.kind ?? null];

// click (epoch 0 → 1), then the recording's own rebuild, then typing
const FLOW = cassette([
  ["list_windows", {}],
  ["click", { x: 1, y: 2 }],
  ["start_session", { session: "demo" }],
  ["list_windows", {}],
  ["type_text", { text: "hi" }],
]);

describe("session-lifecycle calls out of the recorded order", () => {
  it("a rebuild before the click is answered from the epoch that recorded it, without consuming it or moving the epoch", () => {
    const engine = createEngine({ events: FLOW, faults: { rules: [{ match: { tool: "click", nth: 1 }, fault: { kind: "timeout_before_effect" } }] } });
    const decisions = [
      engine.decide(call("list_windows")),
      engine.decide(call("click", { x: 1, y: 2 })),
      engine.decide(call("start_session", { session: "cua-contract-harness" })),
      engine.decide(call("list_windows")),
      engine.decide(call("click", { x: 1, y: 2 })),
      engine.decide(call("start_session", { session: "cua-contract-harness" })),
      engine.decide(call("type_text", { text: "hi" })),
    ];
    expect(decisions.map(row)).toEqual([
      ["list_windows", "replayed", 0, 0, null, null],
      ["click", "faulted", 0, 0, null, null],
      ["start_session", "replayed", 0, 0, 1, null],
      ["list_windows", "replayed", 0, 0, null, null],
      ["click", "replayed", 0, 1, null, null],
      // in its recorded place too, a rebuild never ends an epoch: answered, nothing moves
      ["start_session", "replayed", 1, 1, 1, null],
      ["type_text", "replayed", 1, 2, null, null],
    ]);
    // the pre-click window list is what the harness reads after the rebuild
    expect(decisions[3]!.exchange!.seq).toBe(decisions[0]!.exchange!.seq);
    expect(engine.entry(decisions[2]!, { tMs: 0 })).toMatchObject({ lifecycle_epoch: 1, outcome: "replayed", kind: "mutation" });
    expect(engine.summary(0).unused).toEqual([]);
  });

  it("an answer out of order is marked used, so it is not reported unused", () => {
    const engine = createEngine({ events: FLOW });
    engine.decide(call("start_session", { session: "x" }));
    expect(engine.summary(0).unused.map((u) => u.tool)).toEqual(["click", "type_text"]);
  });

  it("other mutations are still held to the recorded order", () => {
    const engine = createEngine({ events: FLOW });
    expect(engine.decide(call("type_text", { text: "hi" })).outcome).toBe("unmatched");
    expect(engine.epoch).toBe(0);
  });

  it("a lifecycle call never recorded is built from the driver reference, and strict-order keeps lifecycle calls in place", () => {
    const engine = createEngine({ events: FLOW });
    const ended = engine.decide(call("end_session", { session: "x" }));
    expect(ended).toMatchObject({ outcome: "replayed", offPath: { synthesized: "lifecycle" } });
    expect(ended.offPath?.basis).toMatchObject({ source: "reference" });
    expect(ended.offPath?.basis.detail).toContain("the driver reference");
    expect(engine.epoch).toBe(0);
    const strict = createEngine({ events: FLOW, match: "strict-order" });
    expect(strict.decide(call("start_session", { session: "x" })).outcome).toBe("unmatched");
  });

  it("get_session recorded only later is answered at any epoch", () => {
    const engine = createEngine({
      events: cassette([
        ["click", { x: 1, y: 2 }],
        ["get_session", {}],
      ]),
    });
    const d = engine.decide(call("get_session"));
    expect(row(d)).toEqual(["get_session", "replayed", 0, 0, 1, null]);
  });
});

describe("an ended session", () => {
  const ENDED = cassette([
    ["list_windows", {}],
    ["click", { x: 1, y: 2 }],
    ["start_session", { session: "demo" }],
    ["end_session", { session: "demo" }],
    ["list_windows", {}],
  ]);

  it("calls naming it are refused session_ended until start_session, and the refusal moves nothing", () => {
    const engine = createEngine({ events: ENDED });
    const decisions = [
      engine.decide(call("end_session", { session: "mine" })),
      engine.decide(call("list_windows", { session: "mine" })),
      engine.decide(call("click", { x: 1, y: 2, session: "mine" })),
      engine.decide(call("list_windows", { session: "other" })),
      engine.decide(call("start_session", { session: "mine" })),
      engine.decide(call("click", { x: 1, y: 2, session: "mine" })),
    ];
    expect(decisions.map(row)).toEqual([
      ["end_session", "replayed", 0, 0, 1, null],
      ["list_windows", "replayed", 0, 0, null, "session_ended"],
      ["click", "replayed", 0, 0, null, "session_ended"],
      ["list_windows", "replayed", 0, 0, null, null],
      ["start_session", "replayed", 0, 0, 1, null],
      ["click", "replayed", 0, 1, null, null],
    ]);
    expect(engine.entry(decisions[2]!, { tMs: 0 })).toMatchObject({ synthesized: "session_ended", kind: "mutation" });
    expect(engine.entry(decisions[2]!, { tMs: 0 })).not.toHaveProperty("matched_seq");
  });

  it("the refusal is the driver's session_ended envelope on every transport", () => {
    const engine = createEngine({ events: ENDED });
    engine.decide(call("end_session", { session: "mine" }));
    const d = engine.decide(call("click", { x: 1, y: 2, session: "mine" }));
    const inproc = answerInprocess(d);
    expect(inproc).toMatchObject({ type: "reply", reply: { isError: true, structuredContent: { refusal: { code: "session_ended" }, status: "refused" } } });
    const mcp = answerMcpCall({ decision: d, idRaw: "9", transport: "mcp" });
    expect(mcp.type === "line" && mcp.line).toBe(
      '{"jsonrpc":"2.0","id":9,"result":{"content":[{"text":"this session has ended; call start_session explicitly to reuse its label","type":"text"}],"isError":true,"structuredContent":{"refusal":{"code":"session_ended","message":"this session has ended; call start_session explicitly to reuse its label"},"status":"refused"}}}',
    );
    // per-call CLI calls go through the daemon, whose guard stops them first
    expect(answerCli({ decision: { ...d, request: { ...d.request, transport: "cli" } } })).toMatchObject({
      type: "output",
      stdout: "",
      exitCode: 1,
      stderr:
        "session 'mine' has ended; tool call 'click' was rejected. Call start_session with this id to revive it before issuing further actions, or use a new session id.\n",
    });
  });

  it("only an explicit label is tracked: the implicit session (no label, or default) is never refused", () => {
    const engine = createEngine({ events: ENDED });
    engine.decide(call("end_session"));
    expect(engine.decide(call("list_windows")).synthetic).toBeUndefined();
    engine.decide(call("end_session", { session: "default" }));
    expect(engine.decide(call("list_windows", { session: "default" })).synthetic).toBeUndefined();
  });

  it("an end_session that did not take effect (timeout before effect) leaves the session open", () => {
    const engine = createEngine({ events: ENDED, faults: { rules: [{ match: { tool: "end_session" }, fault: { kind: "timeout_before_effect" } }] } });
    engine.decide(call("end_session", { session: "mine" }));
    expect(engine.decide(call("list_windows", { session: "mine" })).synthetic).toBeUndefined();
  });
});
