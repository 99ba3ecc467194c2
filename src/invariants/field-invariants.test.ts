import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../test/helpers/run-cli.js";
import { createVirtualClock } from "#src/driver/clock-virtual.js";
import { answerInprocess } from "#src/replay/engine/answer-inprocess.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { createReplaySession, type ReplaySession } from "#src/replay/session.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";
import type { ReplayLogEntry, RequestEntry } from "#src/schema/replay-log.js";
import { boundedWaitsAfterStall, MAX_LATE_AFTER_STALL } from "./bounded-waits-after-stall.js";
import { noDoneOnUnchanged } from "./no-done-on-unchanged.js";
import { runInvariants } from "./run.js";

const cassette = loadReplayCassette(path.join(repoRoot, "test/fixtures/cassettes/replay-mcp-gtk"));
const LOOK = { pid: 24132, window_id: 4194311, max_elements: 40 };
const CLICK = { pid: 24132, window_id: 4194311, element_token: "s00000004:15" };
const PRESS = { pid: 24132, window_id: 4194311, key: "escape" };

/** What a scripted harness gets back for one call: the raw result, or nothing (the call hung). */
type Call = (tool: string, args: Record<string, unknown>) => { raw?: string; lateMs: number };

/** Runs a scripted in-process harness against the cassette under `plan`; the replay log. */
function run(plan: FaultPlan, harness: (call: Call) => void): ReplayLogEntry[] {
  const clock = createVirtualClock();
  const session: ReplaySession = createReplaySession({ cassette, clock, faults: plan, ignore: ["session"] });
  harness((tool, args) => {
    const tMs = session.t();
    const decision = session.decide({ transport: "inprocess", method: "call", tool, args });
    const answer = answerInprocess(decision);
    const lateMs = answer.type === "hang" ? answer.afterMs : answer.delayMs;
    clock.advance(lateMs);
    session.record(decision, { tMs, ...(answer.type === "reply" && answer.served !== undefined ? { served: answer.served } : {}) });
    return { ...(answer.type === "reply" && answer.served !== undefined ? { raw: answer.served } : {}), lateMs };
  });
  session.finish();
  return session.entries();
}

const NO_EFFECT: FaultPlan = { rules: [{ match: { tool: "click" }, fault: { kind: "no_effect" } }] };

// The harness under test compares the look after its click with the look before it (a screen
// signature of its own: the bytes) and escalates once when nothing changed; its twin trusts the
// "delivered" answer and goes on to the next action.
/** What a look shows, without its snapshot id and element tokens (the driver mints new ones on every read). */
function screen(raw: string | undefined): string | undefined {
  return raw?.replace(/s[0-9a-f]{8}/g, "s");
}

function carefulClicker(call: Call): void {
  const before = screen(call("get_window_state", LOOK).raw);
  call("click", CLICK);
  let after = screen(call("get_window_state", LOOK).raw);
  if (after === before) {
    call("click", { ...CLICK, delivery_mode: "foreground" }); // another route for the same action
    after = screen(call("get_window_state", LOOK).raw);
  }
  if (after === before) return; // still nothing: report the step failed, build nothing on it
  call("press_key", PRESS);
}

function trustingClickerTwin(call: Call): void {
  call("get_window_state", LOOK);
  call("click", CLICK);
  call("get_window_state", LOOK); // looks, but does not compare
  call("press_key", PRESS);
}

describe("no-done-on-unchanged", () => {
  it("passes the harness that escalates and stops when the click changed nothing", () => {
    const log = run(NO_EFFECT, carefulClicker);
    expect(requests(log).map((r) => r.tool)).toEqual(["get_window_state", "click", "get_window_state", "click", "get_window_state"]);
    expect(noDoneOnUnchanged.check(log, {})).toEqual([]);
  });

  it("catches its twin, which goes on as though the click had worked", () => {
    const log = run(NO_EFFECT, trustingClickerTwin);
    const violations = noDoneOnUnchanged.check(log, {});
    expect(violations).toHaveLength(1);
    expect(violations[0]!.evidence.requests).toEqual([1, 0, 2, 3]);
    expect(violations[0]!.message).toMatch(
      /#3 press_key .* after #1 click .* answered as delivered while #2 get_window_state .* showed the screen unchanged since #0/,
    );
  });

  it("without the fault the same twin passes: the click moved the screen (no evidence of no change)", () => {
    expect(noDoneOnUnchanged.check(run({ rules: [] }, trustingClickerTwin), {})).toEqual([]);
  });

  it("a look the harness declares by its own means counts as the fresh look", () => {
    const log = run(NO_EFFECT, trustingClickerTwin);
    const press = requests(log).find((r) => r.tool === "press_key")!;
    const declared: ReplayLogEntry = { type: "observation", t_ms: 0, before: press.n, source: "declared" };
    const at = log.indexOf(press);
    expect(noDoneOnUnchanged.check([...log.slice(0, at), declared, ...log.slice(at)], {})).toEqual([]);
  });
});

const STALL: FaultPlan = { rules: [{ match: { tool: "click", nth: 1 }, fault: { kind: "stall", ms: 62_000 } }] };

// The harness under test gives a wedged driver one more call, then rebuilds its session; its twin
// keeps waiting on every call.
function rebuildingHarness(call: Call): void {
  call("get_window_state", LOOK);
  let late = call("click", CLICK).lateMs >= 30_000 ? 1 : 0;
  for (let i = 0; i < 6; i++) {
    if (late >= 2) {
      call("start_session", { session: "agent-1" });
      late = 0;
    }
    late += call("list_windows", {}).lateMs >= 30_000 ? 1 : 0;
  }
}

function patientTwin(call: Call): void {
  call("get_window_state", LOOK);
  call("click", CLICK);
  for (let i = 0; i < 6; i++) call("list_windows", {});
}

describe("bounded-waits-after-stall", () => {
  it("passes the harness that rebuilds after a second late answer", () => {
    const log = run(STALL, rebuildingHarness);
    expect(requests(log).filter((r) => r.tool === "start_session")).toHaveLength(1);
    expect(boundedWaitsAfterStall.check(log, {})).toEqual([]);
  });

  it("catches its twin, which waits a minute on every call", () => {
    const log = run(STALL, patientTwin);
    const violations = boundedWaitsAfterStall.check(log, {});
    expect(violations).toHaveLength(1);
    // the click began it; the answer after MAX_LATE_AFTER_STALL more late ones is the first offence, the rest are counted in
    expect(violations[0]!.evidence.requests.slice(0, 2)).toEqual([1, 1 + MAX_LATE_AFTER_STALL + 1]);
    expect(violations[0]!.message).toMatch(/answer 5 in a row to come late since #1 click .*stall/);
  });

  // Found by the fuzzer with field faults (seed 20712): a 1 s stall flagged a harness that waited it out.
  it("a short stall is latency, not a wedged driver: waiting it out is no offence", () => {
    const short: FaultPlan = { rules: [{ match: { tool: "click", nth: 1 }, fault: { kind: "stall", ms: 1_000 } }] };
    const log = run(short, patientTwin);
    expect(requests(log).filter((r) => r.fault?.kind === "stall").length).toBeGreaterThan(MAX_LATE_AFTER_STALL + 1);
    expect(boundedWaitsAfterStall.check(log, {})).toEqual([]);
  });

  it("a slow answer without a fault counts too (30 s or more, from the log's durations)", () => {
    const slow = (n: number, ms: number): RequestEntry => ({
      type: "request",
      n,
      t_ms: n * ms,
      transport: "cli",
      method: "call",
      tool: "list_windows",
      kind: "read",
      epoch_before: 0,
      epoch_after: 0,
      outcome: "replayed",
      duration_ms: ms,
    });
    expect(
      boundedWaitsAfterStall.check(
        [0, 1, 2, 3, 4].map((n) => slow(n, 62_000)),
        {},
      ),
    ).toHaveLength(1);
    expect(
      boundedWaitsAfterStall.check(
        [0, 1, 2, 3, 4].map((n) => slow(n, 29_999)),
        {},
      ),
    ).toEqual([]);
  });
});

describe("the field invariants are bundled", () => {
  it("run with the others, by id", () => {
    const report = runInvariants(run(NO_EFFECT, trustingClickerTwin), { only: ["no-done-on-unchanged", "bounded-waits-after-stall"] });
    expect(report.results.map((r) => [r.id, r.passed])).toEqual([
      ["no-done-on-unchanged", false],
      ["bounded-waits-after-stall", true],
    ]);
  });
});

function requests(log: readonly ReplayLogEntry[]): RequestEntry[] {
  return log.filter((e): e is RequestEntry => e.type === "request");
}
