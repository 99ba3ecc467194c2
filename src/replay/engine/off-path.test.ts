import { describe, expect, it } from "vitest";
import type { CassetteEvent } from "#src/schema/cassette.js";
import { answerCli } from "#src/transports/cli/answer.js";
import { createEngine } from "./engine.js";
import type { ReplayRequest } from "./request.js";
import { ACTION, at, call, look, WINDOW } from "../../../test/helpers/hand-built-looks.js";

const SESSION = (label: string, revived: boolean) =>
  JSON.stringify({
    content: [{ text: `✅ Session '${label}' is active.`, type: "text" }],
    structuredContent: {
      active: true,
      capture_scope: "auto",
      desktop_unlocked: false,
      effective_scope: "window",
      escalation_detail: null,
      escalation_reason: null,
      revived,
      session: label,
    },
  });

/** An MCP cassette of these calls and results in this order. */
function cassette(calls: readonly (readonly [string, Record<string, unknown>, string])[]): CassetteEvent[] {
  const events: CassetteEvent[] = [];
  calls.forEach(([tool, args, result], i) => {
    const id = i + 1;
    events.push({
      seq: events.length,
      t_ms: id,
      origin: "harness",
      kind: "mcp",
      stream: 0,
      dir: "c2s",
      line: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: args } }),
    } as CassetteEvent);
    events.push({
      seq: events.length,
      t_ms: id,
      origin: "harness",
      kind: "mcp",
      stream: 0,
      dir: "s2c",
      line: `{"jsonrpc":"2.0","id":${id},"result":${result}}`,
    } as CassetteEvent);
  });
  return events;
}

// look, type, look again, click the row from the second look, look again
const FLOW = cassette([
  ["get_window_state", WINDOW, look("s00000001")],
  ["type_text", { ...WINDOW, text: "hi" }, ACTION],
  ["get_window_state", WINDOW, look("s00000002")],
  ["click", { ...WINDOW, element_token: "s00000002:1" }, ACTION],
  ["get_window_state", WINDOW, look("s00000003")],
]);

/** Decide and log a request as a transport would (what was served is what the state model learns). */
function serve(engine: ReturnType<typeof createEngine>, request: ReplayRequest) {
  const d = engine.decide(request);
  const served = d.exchange ? answerCli({ decision: d }) : undefined;
  const raw = served?.type === "output" ? served.served : undefined;
  return { d, served, entry: engine.entry(d, { tMs: 0, ...(raw !== undefined ? { served: raw } : {}) }) };
}

/** The snapshot id of a look served on the CLI. */
const snapshotServed = (served: ReturnType<typeof answerCli> | undefined): string | undefined =>
  served?.type === "output" && typeof served.stdout === "string" ? /"snapshot_id": "(s[0-9a-f]{8})"/.exec(served.stdout)?.[1] : undefined;

describe("a mutation that did not take effect, then the next one", () => {
  it("is skipped over: the next recorded mutation answers, aimed through the fresher look at the same element, and says so", () => {
    const engine = createEngine({ events: FLOW, faults: at("type_text", 1, "timeout_before_effect") });
    serve(engine, call("get_window_state", WINDOW));
    expect(serve(engine, call("type_text", { ...WINDOW, text: "hi" })).d.outcome).toBe("faulted");
    // the re-read is the state before typing: the first look again, as a new snapshot
    const reread = serve(engine, call("get_window_state", WINDOW));
    expect(reread.d.exchange!.seq).toBe(0);
    const fresh = snapshotServed(reread.served);
    const click = serve(engine, call("click", { ...WINDOW, element_token: `${fresh}:1` }));
    expect(click.entry).toMatchObject({ outcome: "replayed", synthesized: "skipped_ahead", matched_seq: 6, epoch_before: 0, epoch_after: 2 });
    expect(click.entry.basis).toMatchObject({ source: "cassette", seq: 6 });
    expect(click.entry.basis?.detail).toContain(`${fresh}:1 names [1] table cell "Button Boxes"`);
    expect(click.entry.basis?.detail).toContain("#2 type_text did not take effect (timeout_before_effect at request #1)");
    expect(engine.summary(0)).toMatchObject({ unmatched: 0, synthesized: 2, unused: [{ seq: 2, tool: "type_text" }] });
  });

  it("is not skipped over when nothing kept the earlier mutation from taking effect: unmatched, with the fix that would help", () => {
    const engine = createEngine({ events: FLOW });
    const d = engine.decide(call("click", { ...WINDOW, element_token: "s00000002:1" }));
    expect(d.outcome).toBe("unmatched");
    expect(d.miss?.afterFault).toBeUndefined();
  });

  it("a token of another element of the fresher look is not the recorded click", () => {
    const engine = createEngine({ events: FLOW, faults: at("type_text", 1, "timeout_before_effect") });
    serve(engine, call("get_window_state", WINDOW));
    serve(engine, call("type_text", { ...WINDOW, text: "hi" }));
    const d = serve(engine, call("click", { ...WINDOW, element_token: "s00000001:0" })).d;
    expect(d.outcome).toBe("unmatched");
    expect(d.miss?.afterFault).toBe("request #1 (type_text, timeout_before_effect)");
  });
});

describe("stale element tokens", () => {
  it("a token of a look older than the newest served one is refused as the driver refuses it, and nothing is consumed", () => {
    const engine = createEngine({ events: FLOW });
    serve(engine, call("get_window_state", WINDOW));
    serve(engine, call("type_text", { ...WINDOW, text: "hi" }));
    serve(engine, call("get_window_state", WINDOW));
    const stale = serve(engine, call("click", { ...WINDOW, element_token: "s00000001:1" }));
    expect(stale.entry).toMatchObject({ synthesized: "stale_element_token", result: { isError: true, refusal_code: "stale_element_token" }, epoch_after: 1 });
    expect(stale.entry.matched_seq).toBeUndefined();
    expect(stale.entry.basis?.detail).toMatch(/newest snapshot of window 7:70 served since is s00000002/);
    expect(serve(engine, call("click", { ...WINDOW, element_token: "s00000002:1" })).entry).toMatchObject({ outcome: "replayed", matched_seq: 6 });
  });

  it("after an injected stale refusal, every token of that look is refused, also after the window is looked at again", () => {
    const engine = createEngine({ events: FLOW, faults: at("click", 1, "refusal", { code: "stale_element_token" }) });
    for (const r of [call("get_window_state", WINDOW), call("type_text", { ...WINDOW, text: "hi" }), call("get_window_state", WINDOW)]) serve(engine, r);
    expect(serve(engine, call("click", { ...WINDOW, element_token: "s00000002:1" })).entry).toMatchObject({ outcome: "faulted" });
    const retarget = serve(engine, call("click", { ...WINDOW, element_token: "s00000002:0" }));
    expect(retarget.entry).toMatchObject({ synthesized: "stale_element_token", outcome: "replayed" });
    expect(retarget.entry.basis?.detail).toMatch(/refused as stale earlier in this replay/);
    const fresh = snapshotServed(serve(engine, call("get_window_state", WINDOW)).served);
    expect(serve(engine, call("click", { ...WINDOW, element_token: "s00000002:1" })).entry).toMatchObject({ synthesized: "stale_element_token" });
    expect(serve(engine, call("click", { ...WINDOW, element_token: `${fresh}:1` })).entry).toMatchObject({ outcome: "replayed", matched_seq: 6 });
  });

  it("a token served on one `cua-driver mcp` stream is stale on the next (tokens are scoped per runtime)", () => {
    const engine = createEngine({ events: FLOW });
    const mcp = (stream: number) => ({ transport: "mcp" as const, stream });
    serve(engine, call("get_window_state", WINDOW, mcp(0)));
    serve(engine, call("type_text", { ...WINDOW, text: "hi" }, mcp(0)));
    serve(engine, call("get_window_state", WINDOW, mcp(0)));
    const other = serve(engine, call("click", { ...WINDOW, element_token: "s00000002:1" }, mcp(1)));
    expect(other.entry).toMatchObject({ synthesized: "stale_element_token" });
    expect(other.entry.basis?.detail).toMatch(/served by the runtime of MCP stream 0, not by MCP stream 1/);
  });
});

describe("session starts and ends built for the harness", () => {
  it("echo the harness's label and revive a label it ended, from a recorded answer", () => {
    const events = cassette([
      ["start_session", { session: "recorded-label" }, SESSION("recorded-label", false)],
      ["get_window_state", WINDOW, look("s00000001")],
    ]);
    const engine = createEngine({ events });
    const start = serve(engine, call("start_session", { session: "mine" }));
    expect(start.entry).toMatchObject({ synthesized: "lifecycle", epoch_after: 0 });
    expect(start.entry.basis).toEqual({ source: "cassette", seq: 0, detail: "the recorded start_session #0, for label 'mine', not revived" });
    const served = answerCli({ decision: start.d });
    expect(served.type === "output" && served.stdout).toContain('"session": "mine"');
    serve(engine, call("end_session", { session: "mine" }));
    const again = serve(engine, call("start_session", { session: "mine" }));
    const raw = answerCli({ decision: again.d });
    expect(raw.type === "output" && raw.stdout).toContain('"revived": true');
  });

  it("come from the driver reference when the cassette never recorded one, and name the missing fact where the reference has none", () => {
    const engine = createEngine({ events: FLOW, driverVersion: "0.21.0" });
    const start = serve(engine, call("start_session", { session: "rebuilt" }));
    expect(start.entry).toMatchObject({ outcome: "replayed", synthesized: "lifecycle" });
    expect(start.entry.basis?.detail).toMatch(/driver reference for 0\.21\.0/);
    const newer = createEngine({ events: FLOW, driverVersion: "0.24.0" });
    const d = newer.decide(call("start_session", { session: "rebuilt" }));
    expect(d.outcome).toBe("unmatched");
  });
});

describe("a mutation sent again", () => {
  it("after a timeout that took effect is answered with its recorded answer and never consumed twice", () => {
    const engine = createEngine({ events: FLOW, faults: at("type_text", 1, "timeout_after_effect") });
    serve(engine, call("get_window_state", WINDOW));
    serve(engine, call("type_text", { ...WINDOW, text: "hi" }));
    const again = serve(engine, call("type_text", { ...WINDOW, text: "hi" }));
    expect(again.entry).toMatchObject({ synthesized: "resent_mutation", matched_seq: 2, epoch_before: 1, epoch_after: 1 });
    expect(engine.summary(0).synthesized).toBe(1);
  });

  it("strict-order answers nothing off the recorded path", () => {
    const engine = createEngine({ events: FLOW, match: "strict-order" });
    serve(engine, call("get_window_state", WINDOW));
    serve(engine, call("type_text", { ...WINDOW, text: "hi" }));
    expect(engine.decide(call("type_text", { ...WINDOW, text: "hi" })).outcome).toBe("unmatched");
  });
});

describe("unmatched diagnostics", () => {
  it("name every differing path against the nearest recorded request, and the whole --ignore set", () => {
    const engine = createEngine({ events: FLOW });
    serve(engine, call("get_window_state", WINDOW));
    const d = engine.decide(call("type_text", { ...WINDOW, text: "hi", on_screen_only: true, button: "left", element_index: 3 }));
    expect(d.outcome).toBe("unmatched");
    expect(d.miss?.ignore).toEqual(["button", "element_index", "on_screen_only"]);
    expect(d.miss?.reason).toMatch(
      /at 3 paths: \$\.button: "left" ≠ recorded \(absent\); \$\.element_index: 3 ≠ recorded \(absent\); \$\.on_screen_only: true ≠ recorded \(absent\)/,
    );
  });
});
