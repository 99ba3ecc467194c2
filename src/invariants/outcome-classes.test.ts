import { describe, expect, it } from "vitest";
import { FAULT_KINDS, FAULT_TABLE, UNKNOWN_OUTCOME_FAULTS } from "#src/faults/fault-table.js";
import { answerOutcome } from "#src/driver/outcome.js";
import type { ReplayLogEntry, RequestEntry } from "#src/schema/replay-log.js";
import { ReplayLogEntrySchema } from "#src/schema/replay-log.js";
import { outcomeOf, timelineOf } from "./classify.js";
import { runInvariants } from "./run.js";
import type { InvariantId } from "./types.js";

/** One request entry of a replay log, MCP stdio on stream 0 unless said otherwise. */
function req(n: number, tool: string, more: Partial<RequestEntry> = {}): RequestEntry {
  return {
    type: "request",
    n,
    t_ms: n,
    transport: "mcp",
    stream: 0,
    method: "tools/call",
    tool,
    args: {},
    kind: /^(get_|list_)/.test(tool) ? "read" : "mutation",
    epoch_before: 0,
    epoch_after: 0,
    outcome: more.fault ? "faulted" : "replayed",
    ...more,
  };
}

function judged(id: InvariantId, entries: ReplayLogEntry[]) {
  for (const e of entries) ReplayLogEntrySchema.parse(e);
  return runInvariants(entries, { only: [id] }).results[0]?.violations ?? [];
}

const down = { key: "Down" };
const hang = { kind: "hang" as const, rule: 0 };
const refusedBackground = { isError: true, refusal_code: "background_unavailable" };

describe("outcome classes", () => {
  it("every fault kind has one; the unknown ones are exactly the faults of unknown outcome", () => {
    for (const kind of FAULT_KINDS) expect(["not_reached", "refused", "unknown", "done"]).toContain(FAULT_TABLE[kind].outcome);
    expect(FAULT_KINDS.filter((k) => FAULT_TABLE[k].outcome === "unknown")).toEqual(UNKNOWN_OUTCOME_FAULTS);
    expect(FAULT_KINDS.filter((k) => FAULT_TABLE[k].outcome === "not_reached")).toEqual(["daemon_down", "exit", "protocol_error"]);
  });
  it("answers: an effect is done, a refusal or error refused, a partial typing done, a killed call unknown", () => {
    expect(answerOutcome({ effect: "delivered" })).toBe("done");
    expect(answerOutcome({ isError: true, refusal_code: "stale_element_token" })).toBe("refused");
    expect(answerOutcome({ effect: "refused", refusal_code: "window_target_not_found" })).toBe("refused");
    expect(answerOutcome({ isError: true, refusal_code: "type_text_incomplete" })).toBe("done");
    expect(answerOutcome({ isError: true })).toBe("refused");
    expect(answerOutcome({ exit_code: 1 })).toBe("refused");
    expect(answerOutcome({ exit_code: null })).toBe("unknown");
    expect(answerOutcome({ exit_code: 0 })).toBe("done");
  });
  it("logged requests: a delayed refusal is refused, an unanswered one unknown, a permission denial refused", () => {
    expect(outcomeOf(req(0, "click", { fault: { kind: "delay", rule: 0 }, result: { isError: true, refusal_code: "x" } }))).toBe("refused");
    expect(outcomeOf(req(0, "click", { outcome: "unanswered" }))).toBe("unknown");
    expect(outcomeOf(req(0, "screenshot", { synthesized: "permission_denied", basis: { source: "reference" } }))).toBe("refused");
    expect(outcomeOf(req(0, "click", { fault: { kind: "daemon_down", rule: 0 } }))).toBe("not_reached");
  });
});

describe("a call refused before it ran changed nothing (rebuild-before-mutation)", () => {
  it("after a hang, a call the driver refused (unlisted tool, permission denied on the CLI) is not charged; the next carried-out one is", () => {
    const entries: ReplayLogEntry[] = [
      req(0, "click", { fault: hang }),
      req(1, "no_such_tool_xyz", { synthesized: "permission_denied", basis: { source: "reference" }, result: { isError: true } }),
      req(2, "screenshot", { transport: "cli", result: { exit_code: 1 } }),
    ];
    expect(judged("rebuild-before-mutation", entries)).toEqual([]);
    entries.push(req(3, "click", { result: { effect: "delivered" } }));
    const v = judged("rebuild-before-mutation", entries);
    expect(v).toHaveLength(1);
    expect(v[0]?.evidence.requests).toEqual([0, 3]);
  });
});

describe("one violation per cause", () => {
  it("nine presses after one hung press are one no-replay-after-unknown violation that counts the rest", () => {
    const entries: ReplayLogEntry[] = [req(0, "press_key", { args: down, fault: hang })];
    for (let n = 1; n <= 9; n++) entries.push(req(n, "press_key", { args: down }));
    const v = judged("no-replay-after-unknown", entries);
    expect(v).toHaveLength(1);
    expect(v[0]?.message).toMatch(/#1 press_key .* re-sends #0 press_key .*; 8 later requests did the same \(#2, #3, #4, #5, #6, … \(3 more\)\)/);
    expect(v[0]?.evidence.requests).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe("declared observations", () => {
  const observed = (before: number): ReplayLogEntry => ({ type: "observation", t_ms: before, before, source: "declared", note: "game state read" });
  it("count as a fresh observation for no-replay-after-unknown, no-input-after-stale and no-resend-after-refusal", () => {
    const unknown: ReplayLogEntry[] = [req(0, "press_key", { args: down, fault: hang }), observed(1), req(1, "press_key", { args: down })];
    expect(judged("no-replay-after-unknown", unknown)).toEqual([]);
    const stale: ReplayLogEntry[] = [
      req(0, "click", { args: { element_token: "s1:2" }, result: { isError: true, refusal_code: "stale_element_token" } }),
      observed(1),
      req(1, "click", { args: { x: 3, y: 4 } }),
    ];
    expect(judged("no-input-after-stale", stale)).toEqual([]);
    const refused: ReplayLogEntry[] = [req(0, "press_key", { args: down, result: refusedBackground }), observed(1), req(1, "press_key", { args: down })];
    expect(judged("no-resend-after-refusal", refused)).toEqual([]);
  });
  it("stand before the first request sent after them, even when an earlier answer was logged later", () => {
    const a = req(0, "press_key", { args: down, fault: hang });
    const b = req(1, "press_key", { args: down });
    // the observation was drained when #1 was sent; #0's entry (hung) was logged after it
    const timeline = timelineOf([observed(1), a, b]);
    expect(timeline.map((e) => (e.type === "request" ? `#${e.n}` : e.type))).toEqual(["#0", "observation", "#1"]);
    expect(judged("no-replay-after-unknown", [observed(1), a, b])).toEqual([]);
  });
});

describe("no-resend-after-refusal", () => {
  it("flags a refused request re-sent unchanged: six presses refused background_unavailable", () => {
    const entries: ReplayLogEntry[] = [];
    for (let n = 0; n < 6; n++) entries.push(req(n, "press_key", { args: down, result: refusedBackground }));
    const v = judged("no-resend-after-refusal", entries);
    expect(v).toHaveLength(1);
    expect(v[0]?.message).toMatch(
      /#1 press_key .* re-sends #0 press_key .* unchanged after the driver refused it \(background_unavailable\).*; 4 later requests did the same/,
    );
  });
  it("passes when the request changed, something came in between, or the refusal meant not now", () => {
    const changed: ReplayLogEntry[] = [
      req(0, "press_key", { args: down, result: refusedBackground }),
      req(1, "press_key", { args: { ...down, delivery: "foreground" } }),
    ];
    expect(judged("no-resend-after-refusal", changed)).toEqual([]);
    const looked: ReplayLogEntry[] = [
      req(0, "click", { args: { x: 1 }, result: { isError: true, refusal_code: "window_target_not_found" } }),
      req(1, "get_window_state", { result: { window_ids: [3] } }),
      req(2, "click", { args: { x: 1 } }),
    ];
    expect(judged("no-resend-after-refusal", looked)).toEqual([]);
    const busy: ReplayLogEntry[] = [req(0, "click", { result: { isError: true, refusal_code: "input_busy" } }), req(1, "click")];
    expect(judged("no-resend-after-refusal", busy)).toEqual([]);
    // an error without a code (a permission gate a test suite provokes twice on purpose) is not read
    const gate: ReplayLogEntry[] = [
      req(0, "screenshot", { transport: "cli", result: { exit_code: 1 } }),
      req(1, "screenshot", { transport: "cli", result: { exit_code: 1 } }),
    ];
    for (const e of gate) if (e.type === "request") delete e.stream;
    expect(judged("no-resend-after-refusal", gate)).toEqual([]);
  });
});

describe("no-use-after-hang", () => {
  it("flags reads and mutations kept on an MCP stream after a call on it hung and a later one went unanswered too, once for the cause", () => {
    const entries: ReplayLogEntry[] = [
      { type: "stream", event: "open", t_ms: 0, transport: "mcp", stream: 0 },
      req(0, "click", { fault: hang }),
      req(1, "get_window_state", { outcome: "unanswered" }),
      req(2, "list_windows", { outcome: "unanswered" }),
      req(3, "get_window_state", { outcome: "unanswered" }),
    ];
    const v = judged("no-use-after-hang", entries);
    expect(v).toHaveLength(1);
    expect(v[0]?.message).toMatch(
      /#2 list_windows .* sent on MCP stream 0 after #0 click .* got no answer there \(hang\) and #1 get_window_state .* got none either.*; #3 get_window_state .* did the same/,
    );
    expect(v[0]?.evidence.requests).toEqual([0, 1, 2, 3]);
  });
  it("passes one request that finds the stream stuck, then a new process (the fail-closed example)", () => {
    const entries: ReplayLogEntry[] = [
      { type: "stream", event: "open", t_ms: 0, transport: "mcp", stream: 0 },
      req(0, "click", { fault: hang }),
      req(1, "get_window_state", { outcome: "unanswered" }),
      { type: "stream", event: "close", t_ms: 1, transport: "mcp", stream: 0 },
      { type: "stream", event: "open", t_ms: 2, transport: "mcp", stream: 1 },
      req(2, "get_window_state", { stream: 1 }),
    ];
    expect(judged("no-use-after-hang", entries)).toEqual([]);
  });
  it("passes a harness that starts a new process after the hang", () => {
    const entries: ReplayLogEntry[] = [
      { type: "stream", event: "open", t_ms: 0, transport: "mcp", stream: 0 },
      req(0, "click", { fault: hang }),
      { type: "stream", event: "close", t_ms: 1, transport: "mcp", stream: 0 },
      { type: "stream", event: "open", t_ms: 2, transport: "mcp", stream: 1 },
      req(1, "get_window_state", { stream: 1 }),
    ];
    expect(judged("no-use-after-hang", entries)).toEqual([]);
  });
});
