import path from "node:path";
import { describe, expect, it } from "vitest";
import { createVirtualClock } from "#src/driver/clock-virtual.js";
import type { ToolResult } from "#src/driver/port.js";
import { repoRoot } from "../../test/helpers/run-cli.js";
import { loadReplayCassette } from "./load.js";
import { createReplayer } from "./replayer.js";

const cassette = loadReplayCassette(path.join(repoRoot, "test/fixtures/cassettes/replay-mcp-gtk"));
const TOKEN = { pid: 24132, window_id: 4194311, element_token: "s00000004:15" };
const LOOK = { pid: 24132, window_id: 4194311, max_elements: 40 };

describe("field faults on the in-process Driver (the public Replayer, virtual time)", () => {
  it("stall: every answer 62 s late, a timeout under a shorter deadline, until start_session", async () => {
    const clock = createVirtualClock();
    const r = createReplayer({ cassette, clock, faults: { rules: [{ match: { tool: "click" }, fault: { kind: "stall", ms: 62_000 } }] } });
    expect(await r.call("click", TOKEN)).toHaveProperty("structuredContent");
    expect(clock.now()).toBe(62_000);
    expect(await r.call("list_windows", {}, { timeoutMs: 30_000 })).toMatchObject({ kind: "timeout", tool: "list_windows" });
    expect(clock.now()).toBe(92_000);
    await r.call("start_session", { session: "agent-1" });
    const before = clock.now();
    expect(await r.call("list_windows", {})).toHaveProperty("structuredContent.windows");
    expect(clock.now()).toBe(before);
  });

  it("freeze: every call times out until start_session", async () => {
    const clock = createVirtualClock();
    const r = createReplayer({ cassette, clock, faults: { rules: [{ match: { tool: "click" }, fault: { kind: "freeze" } }] } });
    expect(await r.call("click", TOKEN, { timeoutMs: 5000 })).toMatchObject({ kind: "timeout" });
    expect(await r.call("list_windows", {}, { timeoutMs: 5000 })).toMatchObject({ kind: "timeout" });
    expect((await r.call("start_session", { session: "agent-1" })) as ToolResult).toHaveProperty("structuredContent");
    expect(await r.call("list_windows", {}, { timeoutMs: 5000 })).toHaveProperty("structuredContent.windows");
  });

  it("no_effect, session_expired, oversized: tool results with the exact bytes in raw", async () => {
    const r = createReplayer({
      cassette,
      faults: {
        rules: [
          { match: { tool: "click" }, fault: { kind: "no_effect" } },
          { match: { tool: "list_windows" }, fault: { kind: "session_expired" } },
          { match: { tool: "get_window_state", nth: 3 }, fault: { kind: "oversized", bytes: 100_000 } },
        ],
      },
    });
    const before = (await r.call("get_window_state", LOOK)) as ToolResult;
    await r.call("click", TOKEN);
    const after = (await r.call("get_window_state", LOOK)) as ToolResult;
    // the unchanged screen, under the new snapshot id the driver gives every read
    expect(after.raw?.replace(/s[0-9a-f]{8}/g, "s")).toBe(before.raw?.replace(/s[0-9a-f]{8}/g, "s"));
    expect(after.raw).not.toBe(before.raw);
    const refused = (await r.call("list_windows", {})) as ToolResult;
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ refusal: { code: "session_ended" } });
    await r.call("start_session", { session: "agent-1" });
    const big = (await r.call("get_window_state", LOOK)) as ToolResult;
    expect(big.raw!.length).toBeGreaterThan(100_000);
    expect(r.summary().epoch).toBe(0);
  });
});
