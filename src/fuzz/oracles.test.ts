import { describe, expect, it } from "vitest";
import type { HarnessAction, StepResult } from "#src/schema/harness-step.js";
import type { ReplayLogEntry, RequestEntry } from "#src/schema/replay-log.js";
import { checkOracles } from "./oracles.js";

const W = { pid: 7, window_id: 42 };
let n = 0;
function req(tool: string, more: Partial<RequestEntry> = {}): RequestEntry {
  return {
    type: "request",
    n: n++,
    t_ms: 0,
    transport: "inprocess",
    method: "call",
    tool,
    kind: "read",
    epoch_before: 0,
    epoch_after: 0,
    outcome: "replayed",
    ...more,
  };
}
function step(decision: StepResult["decision"], calls: [string, StepResult["calls"][number]["purpose"]][], observation?: string): StepResult {
  return {
    decision,
    note: "",
    calls: calls.map(([tool, purpose]) => ({ tool, args: {}, purpose, result: "ok" })),
    ...(observation ? { observation: { frame: observation, text: "", partial: false } } : {}),
  };
}
const ids = (actions: HarnessAction[], steps: StepResult[], log: ReplayLogEntry[]) => checkOracles({ actions, steps, log }).map((f) => `${f.id}@${f.step}`);

describe("decision oracles", () => {
  const click: HarnessAction = { action: "click", ...W, element_token: "s00000001:1" };
  it("unproven-not-done: done needs a confirmed effect", () => {
    const steps = [step("done", [["click", "action"]])];
    expect(ids([click], steps, [req("click", { kind: "mutation", result: { effect: "unverifiable" } })])).toEqual(["unproven-not-done@1"]);
    expect(ids([click], steps, [req("click", { kind: "mutation", result: { effect: "confirmed" } })])).toEqual([]);
    expect(ids([click], [step("verify_fresh_state", [["click", "action"]])], [req("click", { kind: "mutation", result: { effect: "unverifiable" } })])).toEqual(
      [],
    );
  });
  it("empty-list-partial: an observation with an empty or failed final list is not done", () => {
    const observe: HarnessAction = { action: "observe", ...W };
    const calls: [string, "observe"][] = [
      ["list_windows", "observe"],
      ["get_window_state", "observe"],
    ];
    expect(ids([observe], [step("done", calls)], [req("list_windows", { result: { empty: true, window_ids: [] } }), req("get_window_state")])).toEqual([
      "empty-list-partial@1",
    ]);
    const retried = step("done", [
      ["list_windows", "observe"],
      ["start_session", "rebuild"],
      ["list_windows", "retry"],
    ]);
    const log = [
      req("list_windows", { fault: { kind: "truncated", rule: 0 }, outcome: "faulted" }),
      req("start_session"),
      req("list_windows", { result: { window_ids: [42] } }),
    ];
    expect(ids([observe], [retried], log)).toEqual([]);
  });
  it("stale-lease-respected: no pixel click aimed from before a window move took effect", () => {
    const actions: HarnessAction[] = [
      { action: "observe", ...W },
      { action: "set_window_frame", ...W, x: 1, y: 2, width: 300, height: 200 },
      { action: "click", ...W, x: 10, y: 10, frame: "obs-1" },
    ];
    const steps = [
      step("done", [["list_windows", "observe"]], "obs-1"),
      step("done", [["set_window_frame", "action"]]),
      step("verify_fresh_state", [
        ["list_windows", "lease_check"],
        ["click", "action"],
      ]),
    ];
    const moved = [
      req("list_windows"),
      req("set_window_frame", { kind: "mutation", epoch_after: 1, result: { effect: "confirmed" } }),
      req("list_windows"),
      req("click", { kind: "mutation" }),
    ];
    expect(ids(actions, steps, moved)).toEqual(["stale-lease-respected@3"]);
    const notMoved = [
      req("list_windows"),
      req("set_window_frame", { kind: "mutation", fault: { kind: "timeout_before_effect", rule: 0 } }),
      req("list_windows"),
      req("click", { kind: "mutation" }),
    ];
    expect(ids(actions, steps, notMoved)).toEqual(["unproven-not-done@2"]);
  });
});
