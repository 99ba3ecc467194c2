import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { faultRuleArb, faultTargets, refusalCodesFor } from "./fault-plan.js";

// The flow of examples/fail-closed-python's CLI recording: one type_text and one click among reads.
const calls = [
  { tool: "start_session", args: { session: "s" }, mutation: false },
  { tool: "list_windows", args: {}, mutation: false },
  { tool: "get_window_state", args: { pid: 1, window_id: 2 }, mutation: false },
  { tool: "type_text", args: { pid: 1, window_id: 2, text: "hi" }, mutation: true },
  { tool: "get_window_state", args: { pid: 1, window_id: 2 }, mutation: false },
  { tool: "click", args: { pid: 1, window_id: 2, element_token: "s00000002:18" }, mutation: true },
  { tool: "get_window_state", args: { pid: 1, window_id: 2 }, mutation: false },
];
const targets = faultTargets(calls);
const tools = [...new Set(calls.map((c) => c.tool))].sort();

describe("fault rules aimed at the flow's calls", () => {
  it("numbers each call per tool and notes what its arguments name", () => {
    expect(targets.map((t) => `${t.tool}#${t.nth}`)).toEqual([
      "start_session#1",
      "list_windows#1",
      "get_window_state#1",
      "type_text#1",
      "get_window_state#2",
      "click#1",
      "get_window_state#3",
    ]);
    expect(targets[5]).toMatchObject({ mutation: true, element: true, pixels: false, window: true });
  });

  it("gives each call the refusal codes the driver can give it", () => {
    expect(refusalCodesFor(targets[5]!)).toEqual(["stale_element_token", "session_ended", "background_unavailable", "input_busy", "ambiguous_window_target"]);
    expect(refusalCodesFor(targets[1]!)).toEqual(["session_ended"]);
    expect(refusalCodesFor(faultTargets([{ tool: "click", args: { x: 1, y: 2 }, mutation: true }])[0]!)).toContain("px_frame_mismatch");
  });

  it("draws the stale refusal on the flow's only element click often, and still draws every kind and loose rules", () => {
    const rules = fc.sample(faultRuleArb({ tools, targets }), { numRuns: 4000, seed: 1 });
    const staleClick = rules.filter(
      (r) => "tool" in r.match && r.match.tool === "click" && r.match.nth === 1 && r.fault.kind === "refusal" && r.fault.code === "stale_element_token",
    );
    // blind drawing gave this rule about once in 600; aimed, it is several in a hundred
    expect(staleClick.length / rules.length).toBeGreaterThan(0.04);
    const kinds = new Set(rules.map((r) => r.fault.kind));
    expect([...kinds].sort()).toEqual([
      "corrupt_image",
      "daemon_died_midcall",
      "daemon_down",
      "delay",
      "empty",
      "exit",
      "hang",
      "refusal",
      "timeout_after_effect",
      "timeout_before_effect",
      "truncated",
    ]);
    expect(rules.some((r) => "kind" in r.match)).toBe(true);
    expect(rules.some((r) => "tool" in r.match && (r.match.nth ?? 1) > 1 && r.match.tool === "click")).toBe(true);
  });
});
