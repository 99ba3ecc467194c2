import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../test/helpers/run-cli.js";
import { loadReplayCassette } from "./load.js";
import { createReplayer } from "./replayer.js";
import { createVirtualClock } from "#src/driver/clock-virtual.js";

const cassette = loadReplayCassette(path.join(repoRoot, "test/fixtures/cassettes/replay-mcp-gtk"));
const TOKEN = { pid: 24132, window_id: 4194311, element_token: "s00000004:15" };

describe("replay at the recorded speed (in process)", () => {
  it("each answer takes the recorded call's duration in the clock's time; a shorter timeout times out", async () => {
    // list_windows was asked at t=35 and answered at t=40; click at 55 → 60
    const clock = createVirtualClock();
    const r = createReplayer({ cassette, clock, speed: "recorded" });
    await r.call("list_windows", {});
    expect(clock.now()).toBe(5);
    await r.call("click", TOKEN);
    expect(clock.now()).toBe(10);
    const fast = createVirtualClock();
    await createReplayer({ cassette, clock: fast }).call("list_windows", {});
    expect(fast.now()).toBe(0);
    const tight = createReplayer({ cassette, clock: createVirtualClock(), speed: "recorded" });
    expect(await tight.call("list_windows", {}, { timeoutMs: 3 })).toMatchObject({ kind: "timeout", tool: "list_windows" });
  });

  it("a delay fault adds to the recorded time, and a drawn delay's length is what the log shows", async () => {
    const clock = createVirtualClock();
    const r = createReplayer({
      cassette,
      clock,
      speed: "recorded",
      seed: 4,
      faults: { rules: [{ match: { tool: "list_windows" }, fault: { kind: "delay", ms: 1000, jitter_ms: 500 } }] },
    });
    await r.call("list_windows", {});
    const entry = r.log().find((e) => e.type === "request")!;
    const drawn = (entry.type === "request" ? entry.fault?.params?.ms : undefined) as number;
    expect(drawn).toBeGreaterThanOrEqual(500);
    expect(drawn).toBeLessThanOrEqual(1500);
    expect(clock.now()).toBe(drawn + 5);
  });
});
