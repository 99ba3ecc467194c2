// The harness core's CLI and MCP adapters against the real cua-driver 0.21.0 runtime (npm
// @trycua/cua-driver, headless), reached through the `cua-driver` shim the way a harness reaches
// a binary: one `cua-driver call` per call, or one `cua-driver mcp` process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolResult } from "#src/driver/port.js";
import { createCliDriver } from "#src/transports/cli/driver.js";
import { createMcpDriver } from "#src/transports/mcp/driver.js";
import { classifyActionResult } from "#src/harness/core/verdict.js";
import { createHarnessSession } from "#src/harness/session.js";
import { startShimServer, type ShimServer } from "#src/shim-server/index.js";
import { createSdkBackend } from "#src/transports/sdk/sdk-backend.js";
import { manualClock } from "../helpers/scripted-driver.js";

let server: ShimServer;
beforeAll(async () => {
  server = await startShimServer({ backend: await createSdkBackend({ version: "0.21.0" }) });
});
afterAll(async () => {
  await server?.close();
});
const env = () => ({ ...(server.env as Record<string, string>), DISPLAY: "", WAYLAND_DISPLAY: "" });

describe("harness adapters over the real runtime", () => {
  it("per-call CLI: a stale-token refusal exits 0 and still reads as a refusal", async () => {
    const driver = createCliDriver({ env: env() });
    const stale = (await driver.call("click", { pid: 1, element_token: "s00000001:0" })) as ToolResult;
    expect(stale.isError).toBe(true);
    expect(stale.structuredContent).toEqual({
      refusal: { code: "stale_element_token", message: "element_token is stale; call get_window_state again to refresh" },
      status: "refused",
    });
    expect(classifyActionResult(stale)).toMatchObject({ decision: "escalate", outcome: "refused" });
    const headless = (await driver.call("get_screen_size", {})) as ToolResult;
    expect(headless.isError).toBe(true); // text-only stdout from a structured tool (decision 0039)
    expect((await driver.listTools()).length).toBeGreaterThan(50);
  });

  it("MCP stdio: the same refusal, and a session that fails closed on an empty desktop", async () => {
    await using driver = await createMcpDriver({ env: env() });
    const stale = (await driver.call("click", { pid: 1, element_token: "s00000001:0" })) as ToolResult;
    expect(stale.isError).toBe(true);
    expect((stale.structuredContent?.refusal as { code: string } | undefined)?.code).toBe("stale_element_token");
    const session = createHarnessSession({ driver, clock: manualClock(), label: "harness-e2e" });
    const seen = await session.step({ action: "observe" });
    expect(seen.calls.map((c) => `${c.tool}:${c.result}`)).toEqual(["start_session:ok", "list_windows:ok"]);
    expect(seen).toMatchObject({ decision: "verify_fresh_state", observation: { partial: true } });
    const typed = await session.step({ action: "type_text", pid: 1, window_id: 1, text: "hello" });
    expect(typed).toMatchObject({ decision: "blocked", blockedBy: "window_unobserved", calls: [] });
  });
});
