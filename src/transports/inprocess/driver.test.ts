import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../test/helpers/run-cli.js";
import { manualClock } from "../../../test/helpers/scripted-driver.js";
import type { Driver } from "#src/driver/port.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { createReplayer } from "#src/replay/replayer.js";
import { createHarnessSession } from "#src/harness/core/session.js";
import { inProcessDriver } from "./driver.js";

describe("in-process drivers", () => {
  it("a driver that throws resolves as a transport error, and the session fails closed", async () => {
    const throwing: Driver = {
      call: async (tool) => {
        if (tool === "click" || tool === "press_key") throw new Error("boom");
        return {
          content: [{ type: "text", text: "Found 1 windows:" }],
          structuredContent: { windows: [{ window_id: 7, pid: 3, x: 0, y: 0, width: 10, height: 10, z_index: 0, is_on_screen: true }] },
        };
      },
      listTools: async () => [],
    };
    const driver = inProcessDriver(throwing);
    expect(await driver.call("click", {})).toEqual({ kind: "transport_error", tool: "click", message: "boom" });
    const session = createHarnessSession({ driver, clock: manualClock() });
    await session.step({ action: "list_windows" });
    const r = await session.step({ action: "press_key", pid: 3, window_id: 7, key: "a" });
    expect(r).toMatchObject({ decision: "verify_fresh_state", verdict: { outcome: "unknown" } });
    expect(r.calls).toEqual([{ tool: "press_key", args: { pid: 3, window_id: 7, key: "a" }, purpose: "action", result: "transport_error" }]);
    expect(session.state).toMatchObject({ suspect: true, freshStateRequired: "the outcome of press_key is unknown" });
  });

  it("runs over the replay engine's createReplayer with a timeout fault, never re-sending the click", async () => {
    const scenario = JSON.parse(readFileSync(path.join(repoRoot, "contracts/scenarios/click-timeout-after-effect.json"), "utf8"));
    const cassette = await loadReplayCassette(path.join(repoRoot, "contracts/scenarios", scenario.cassette));
    const replayer = createReplayer({ cassette, faults: scenario.faults, clock: manualClock() });
    const session = createHarnessSession({ driver: inProcessDriver(replayer), clock: manualClock(), timeoutMs: scenario.timeout_ms ?? 5_000 });
    const results = [];
    for (const step of scenario.steps) results.push(await session.step(step));
    // The scenario's one click reached the driver once and timed out: its step is an unknown outcome,
    // and no later step sends a click again.
    const clicks = replayer.log().filter((e) => "tool" in e && e.tool === "click");
    expect(clicks).toHaveLength(1);
    const clickSteps = results.flatMap((r, i) => (r.calls.some((c) => c.tool === "click") ? [i] : []));
    expect(clickSteps).toEqual([scenario.steps.findIndex((s: { action: string }) => s.action === "click")]);
    const clicked = results[clickSteps[0]!]!;
    expect(clicked).toMatchObject({ decision: "verify_fresh_state", verdict: { outcome: "unknown" } });
    expect(clicked.calls.map((c) => c.tool)).toEqual(["click"]);
    expect(results.length).toBeGreaterThan(clickSteps[0]! + 1); // a step after the click, which rebuilt and did not click
    expect(session.state.rebuilds).toBeGreaterThanOrEqual(1);
  });
});
