import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CassetteEvent } from "#src/schema/cassette.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";
import { repoRoot } from "../../../test/helpers/run-cli.js";
import { answerMcpCall } from "#src/transports/mcp/answer.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { createReplaySession } from "#src/replay/session.js";
import { createVirtualClock } from "#src/driver/clock-virtual.js";
import { answerCli } from "#src/transports/cli/answer.js";
import { createEngine } from "./engine.js";
import { cliRequest, mcpRequest } from "./request.js";
import { windowCandidates } from "./window-candidates.js";

// a synthetic CLI recording: list_windows answers in epochs 0, 1 and 2, separated by two clicks
const win = (pid: number, id: number, title: string, onScreen = true) => ({
  app_name: "Demo",
  bounds: { height: 10, width: 10, x: 0, y: 0 },
  height: 10,
  is_on_screen: onScreen,
  pid,
  title,
  width: 10,
  window_id: id,
  x: 0,
  y: 0,
  z_index: 0,
});
let seq = 0;
const cli = (argv: string[], stdout: unknown, exitCode = 0): CassetteEvent =>
  ({
    seq: seq++,
    t_ms: seq,
    duration_ms: 1,
    kind: "cli",
    argv,
    stdout: `${JSON.stringify(stdout, null, 2)}\n`,
    stderr: "",
    exit_code: exitCode,
  }) as CassetteEvent;
const CLICK = '{"pid":100,"x":1,"y":2}';
const clicked = { delivery: { mode: "background" }, effect: "dispatched", route: "xtest" };
const events: CassetteEvent[] = [
  cli(["call", "list_windows"], { windows: [win(100, 1, "One"), win(200, 9, "Other"), win(100, 2, "Two", false)] }),
  cli(["call", "click", CLICK], clicked),
  cli(["call", "list_windows"], { windows: [win(100, 3, "Three")] }),
  cli(["call", "list_windows"], { windows: [win(100, 4, "Four")] }),
  cli(["call", "click", CLICK], clicked),
  cli(["call", "list_windows"], { windows: [win(100, 5, "Five")] }),
];
const refuseNth = (nth: number, code = "ambiguous_window_target"): FaultPlan => ({
  rules: [{ match: { tool: "click", nth }, fault: { kind: "refusal", code } }],
});
const click = () => cliRequest({ argv: ["call", "click", CLICK] });

describe("window candidates of a target-style refusal", () => {
  it("lists the pid's windows from the latest list_windows at or before the epoch, in list order", () => {
    const { exchanges } = createEngine({ events });
    expect(windowCandidates({ exchanges, epoch: 0, pid: 100 })).toEqual([
      { app_name: "Demo", is_on_screen: true, title: "One", window_id: 1 },
      { app_name: "Demo", is_on_screen: false, title: "Two", window_id: 2 },
    ]);
    // epoch 1 has two answers: the later one wins; epoch 2's answer is not yet known there
    expect(windowCandidates({ exchanges, epoch: 1, pid: 100 })).toEqual([{ app_name: "Demo", is_on_screen: true, title: "Four", window_id: 4 }]);
    // nothing recorded in epoch 7: the last one known (epoch 2)
    expect(windowCandidates({ exchanges, epoch: 7, pid: 100 })).toEqual([{ app_name: "Demo", is_on_screen: true, title: "Five", window_id: 5 }]);
    expect(windowCandidates({ exchanges, epoch: 1, pid: 200 })).toEqual([]);
    expect(windowCandidates({ exchanges, epoch: 0, pid: 200 })).toEqual([{ app_name: "Demo", is_on_screen: true, title: "Other", window_id: 9 }]);
  });

  it("invents nothing: no list_windows, a failed one, or a missing field stays absent", () => {
    seq = 100;
    const noList = createEngine({ events: [cli(["call", "click", CLICK], clicked)] });
    expect(windowCandidates({ exchanges: noList.exchanges, epoch: 0, pid: 100 })).toEqual([]);
    const failed = createEngine({
      events: [cli(["call", "list_windows"], { windows: [win(100, 1, "One")] }), cli(["call", "list_windows"], "daemon gone", 1)],
    });
    // the failed answer (exit 1) shows no windows: the earlier successful one stands
    expect(windowCandidates({ exchanges: failed.exchanges, epoch: 0, pid: 100 })).toEqual([
      { app_name: "Demo", is_on_screen: true, title: "One", window_id: 1 },
    ]);
    const partial = createEngine({ events: [cli(["call", "list_windows"], { windows: [{ pid: 100, window_id: 6 }] })] });
    expect(windowCandidates({ exchanges: partial.exchanges, epoch: 0, pid: 100 })).toEqual([{ window_id: 6 }]);
  });

  it("the engine attaches them to refusal decisions at the epoch before the refused call", () => {
    const first = createEngine({ events, faults: refuseNth(1) }).decide(click());
    expect(first.candidates?.map((c) => c.window_id)).toEqual([1, 2]);
    const engine = createEngine({ events, faults: refuseNth(2) });
    expect(engine.decide(click()).candidates).toBeUndefined(); // served normally: epoch 0 → 1
    const second = engine.decide(click());
    expect(second.epochBefore).toBe(1);
    expect(second.epochAfter).toBe(1); // a refusal does not advance
    expect(second.candidates?.map((c) => c.window_id)).toEqual([4]);
    // element-style refusals and window_target_resolution_failed carry no candidates
    expect(createEngine({ events, faults: refuseNth(1, "stale_element_token") }).decide(click()).candidates).toBeUndefined();
    expect(createEngine({ events, faults: refuseNth(1, "window_target_resolution_failed") }).decide(click()).candidates).toBeUndefined();
    expect(
      createEngine({ events, faults: refuseNth(1, "window_target_not_found") })
        .decide(click())
        .candidates?.map((c) => c.title),
    ).toEqual(["One", "Two"]);
  });

  it("renders the same candidates on the CLI and over MCP, keys sorted as serde_json emits them", () => {
    const cassette = loadReplayCassette(path.join(repoRoot, "test/fixtures/cassettes/replay-mcp-gtk"));
    const args = { pid: 24132, window_id: 4194311, element_token: "s00000004:15" };
    const faults = refuseNth(1);
    const expected =
      '"structuredContent":{"candidates":[{"app_name":"Gtk3-demo","is_on_screen":true,"title":"Application Class","window_id":4194311}],"code":"ambiguous_window_target","effect":"refused","pid":24132}}';
    const viaMcp = createReplaySession({ cassette, clock: createVirtualClock(), faults });
    const d = viaMcp.decide(mcpRequest({ message: { idRaw: "3", method: "tools/call", params: { name: "click", arguments: args } } }));
    const line = (answerMcpCall({ decision: d, idRaw: "3", transport: "mcp" }) as { line: string }).line;
    expect(line.endsWith(`${expected}}`)).toBe(true);
    const viaCli = createReplaySession({ cassette, clock: createVirtualClock(), faults });
    const out = answerCli({ decision: viaCli.decide(cliRequest({ argv: ["call", "click", JSON.stringify(args)] })), frame: cassette.frame! });
    expect(out).toMatchObject({ type: "output", exitCode: 0 });
    expect(JSON.parse((out as { stdout: string }).stdout)).toEqual({
      candidates: [{ app_name: "Gtk3-demo", is_on_screen: true, title: "Application Class", window_id: 4194311 }],
      code: "ambiguous_window_target",
      effect: "refused",
      pid: 24132,
    });
  });
});
