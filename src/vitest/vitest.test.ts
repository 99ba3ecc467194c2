import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { readCassetteSync } from "#src/cassette/reader.js";
import os from "node:os";
import path from "node:path";
import { pruneCassette } from "#src/cassette/prune.js";
import { readReplayLogs } from "#src/cassette/read-replay-logs.js";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../test/helpers/run-cli.js";
import { isUserError } from "#src/errors.js";
import { toHaveDecision, toHaveServedAll, toPassInvariants } from "./matchers.js";
import { resolveMode } from "./mode.js";
import { type CassetteHandle, useCassette } from "./use-cassette.js";
import "./test.js";

const CASSETTE = path.join(repoRoot, "examples/vitest/cassettes/button-boxes");
const PID = 27963;
const target = { pid: PID, window_id: 4194311, session: "vitest-example" };

describe("cassette mode", () => {
  it("comes from code, else CUA_CONTRACT_MODE, else replay; an unknown one names its source", () => {
    expect(resolveMode(undefined, {})).toBe("replay");
    expect(resolveMode(undefined, { CUA_CONTRACT_MODE: "record" })).toBe("record");
    expect(resolveMode("passthrough", { CUA_CONTRACT_MODE: "record" })).toBe("passthrough");
    expect(resolveMode(undefined, { CUA_CONTRACT_MODE: "record-missing" })).toBe("record-missing");
    try {
      resolveMode(undefined, { CUA_CONTRACT_MODE: "live" });
      expect.unreachable();
    } catch (error) {
      expect(isUserError(error)).toBe(true);
      expect((error as Error).message).toBe('CUA_CONTRACT_MODE: unknown cassette mode "live". Use one of replay, record, record-missing, passthrough.');
    }
  });
});

const clickOnBoxes = { ...target, element_token: "s00000001:18" };

/** Starts the session, looks, and clicks Button Boxes into the plan's timeout_after_effect; the click's arguments. */
async function clickTimedOut(c: CassetteHandle): Promise<typeof clickOnBoxes> {
  await c.driver.call("start_session", { session: "vitest-example" });
  await c.driver.call("list_windows", {});
  await c.driver.call("get_window_state", target);
  expect(await c.driver.call("click", clickOnBoxes, { timeoutMs: 1000 })).toMatchObject({ kind: "timeout" });
  return clickOnBoxes;
}

describe("matchers", () => {
  it("toPassInvariants fails on a harness that re-sends a click whose outcome was unknown, naming the invariant and requests", async () => {
    await using c = await useCassette(CASSETTE, { faults: { rules: [{ match: { tool: "click", nth: 1 }, fault: { kind: "timeout_after_effect" } }] } });
    const click = await clickTimedOut(c);
    await c.driver.call("click", click); // the bug: sent again, blind
    const result = toPassInvariants(c);
    expect(result.pass).toBe(false);
    expect(result.message()).toMatch(/^expected the replay to pass the invariants; \d+ violated:\n {2}no-replay-after-unknown: /);
    expect(result.message()).toContain("(requests #3, #4)");
    expect(() => expect(c).toPassInvariants()).toThrow(/no-replay-after-unknown/);
    expect(c).toPassInvariants(["no-unknown-tools"]);
    expect(c).toHaveDecision(3, { outcome: "faulted", fault: "timeout_after_effect" });
  });

  it("a look declared with observe() between the unknown click and the next one counts as fresh", async () => {
    await using c = await useCassette(CASSETTE, { faults: { rules: [{ match: { tool: "click", nth: 1 }, fault: { kind: "timeout_after_effect" } }] } });
    const click = await clickTimedOut(c);
    c.observe("the test read the app's own state");
    await c.driver.call("click", click);
    expect(c).toPassInvariants(["no-replay-after-unknown"]);
    expect(c.log().find((e) => e.type === "observation")).toMatchObject({ before: 4, source: "declared", note: "the test read the app's own state" });
  });

  it("toHaveServedAll shows an unmatched request with the nearest recorded one, and the unused mutations", async () => {
    await using c = await useCassette(CASSETTE);
    await c.driver.call("start_session", { session: "vitest-example" });
    await c.driver.call("list_windows", {});
    await c.driver.call("get_window_state", { ...target, pid: PID + 1 });
    const result = toHaveServedAll(c);
    expect(result.pass).toBe(false);
    const message = result.message();
    expect(message).toContain(`unmatched #2 call get_window_state {"pid":${PID + 1},"window_id":4194311,"session":"vitest-example"}: `);
    expect(message).toContain(`differs from #4 (get_window_state) at $.pid: ${PID + 1} ≠ recorded ${PID} (nearest: recorded seq 4, differs at $.pid)`);
    expect(message).toContain("unused recorded mutation seq 5 (click)");
    // a session end is answered at any epoch and is never an unused mutation
    expect(message).not.toContain("(end_session)");
  });

  it("toHaveDecision names what differed, or that the request is not in the log", async () => {
    await using c = await useCassette(CASSETTE);
    await c.driver.call("start_session", { session: "vitest-example" });
    expect(c).toHaveDecision(0, "replayed");
    expect(toHaveDecision(c, 0, { outcome: "faulted" }).message()).toBe(
      'expected request #0 (#0 call start_session {"session":"vitest-example"}) to be {"outcome":"faulted"}, but outcome was "replayed", not "faulted"',
    );
    expect(toHaveDecision(c, { tool: "click" }, "replayed").message()).toMatch(
      /^expected call 1 of click to be \{"outcome":"replayed"\}, but the log has no such request \(it has 1: #0 call start_session/,
    );
  });
});

describe("useCassette for a harness process", () => {
  it("puts the replaying cua-driver shim on PATH and in CUA_DRIVER; the process's calls land in the log", async () => {
    await using c = await useCassette(CASSETTE);
    const env = await c.env();
    expect(env.PATH!.split(path.delimiter)[0]).toBe(path.dirname(env.CUA_DRIVER!));
    const run = await c.run(["sh", "-c", 'cua-driver call start_session \'{"session":"vitest-example"}\' && "$CUA_DRIVER" call list_windows "{}"']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain('"app_name": "Gtk3-demo"');
    expect(
      c
        .log()
        .filter((e) => e.type === "request")
        .map((e) => (e.type === "request" ? e.tool : "")),
    ).toEqual(["start_session", "list_windows"]);
    expect(c.summary()).toMatchObject({ served: 2, unmatched: 0 });
  });
});

describe("a pruned cassette from an in-process run", () => {
  it("writeLog feeds cassette prune; the same calls replay identically on the pruned copy", async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), "vitest-prune-"));
    try {
      const calls = async (dir: string) => {
        const c = await useCassette(dir);
        await c.driver.call("start_session", { session: "vitest-example" });
        await c.driver.call("list_windows", {});
        await c.driver.call("get_window_state", target);
        return c;
      };
      const first = await calls(CASSETTE);
      first.writeLog(path.join(tmp, "log.jsonl"));
      const pruned = pruneCassette({ dir: CASSETTE, logs: readReplayLogs([path.join(tmp, "log.jsonl")]), out: path.join(tmp, "pruned") });
      expect(pruned.warnings).toEqual([]);
      expect(pruned.dropped).toEqual([5, 6, 7, 8]); // click, list_windows, get_window_state, end_session
      const second = await calls(path.join(tmp, "pruned"));
      const strip = (c: typeof first) => c.log().map((e) => ({ ...e, t_ms: 0, duration_ms: 0 }));
      expect(strip(second)).toEqual(strip(first));
      expect(second).toHaveServedAll();
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe("record-missing mode", () => {
  const fake = path.join(repoRoot, "test/fixtures/drivers/cua-driver-0.21.0");
  it("answers what the cassette has, adds what it lacks from the live driver on close, and the grown cassette replays both", async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), "vitest-record-missing-"));
    try {
      const dir = path.join(tmp, "rec");
      cpSync(path.join(repoRoot, "test/fixtures/cassettes/replay-cli-gtk"), dir, { recursive: true });
      const env = { ...process.env, CI: "" };
      const c = await useCassette(dir, { mode: "record-missing", driver: fake, driverSource: "synthetic", env });
      expect(c.mode).toBe("record-missing");
      const recorded = await c.driver.call("get_screen_size", {});
      const added = await c.driver.call("get_cursor_position", {});
      expect(added).toMatchObject({ structuredContent: { source: "x11", x: 100, y: 100 } });
      await c.close();
      expect(c.grown).toMatchObject({ served: 1, added: 1 });
      const replayed = await useCassette(dir, { env: { CUA_CONTRACT_MODE: "replay" } });
      expect(await replayed.driver.call("get_screen_size", {})).toMatchObject({
        structuredContent: (recorded as { structuredContent: unknown }).structuredContent,
      });
      expect(await replayed.driver.call("get_cursor_position", {})).toMatchObject({ structuredContent: { x: 100, y: 100 } });
      expect(replayed.summary()).toMatchObject({ served: 2, unmatched: 0 });
      const cassette = readCassetteSync(dir);
      expect(cassette.events.filter((e) => e.added).map((e) => [e.kind === "cli" ? e.argv[1] : e.kind, e.added?.source])).toEqual([
        ["get_cursor_position", "synthetic"],
      ]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("is refused under CI=true unless allowInCi", async () => {
    await expect(useCassette(CASSETTE, { mode: "record-missing", driver: fake, env: { CI: "true" } })).rejects.toThrow(
      /^CUA_CONTRACT_MODE=record-missing: record-missing is refused when CI=true: .* or pass allowInCi: true \(or set CUA_CONTRACT_ALLOW_IN_CI=1\) when this job is meant to grow it\.$/,
    );
  });
});
