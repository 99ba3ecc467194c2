import { describe, expect, it } from "vitest";
import { manualClock } from "../../../test/helpers/scripted-driver.js";
import type { ToolResult } from "#src/driver/port.js";
import { createHarnessSession } from "#src/harness/core/session.js";
import { createSdkDriver } from "./driver.js";

// The real cua-driver 0.21.0 runtime (npm @trycua/cua-driver), in process, with no display.
delete process.env.DISPLAY;
delete process.env.WAYLAND_DISPLAY;
describe("in-process driver over the real runtime (no display)", () => {
  it("answers like the captured 0.21.0 results", async () => {
    await using driver = await createSdkDriver({ version: "0.21.0" });
    expect((await driver.listTools()).length).toBe(59);
    const windows = (await driver.call("list_windows", {})) as ToolResult;
    expect(windows.structuredContent).toEqual({ windows: [] });
    const stale = (await driver.call("click", { pid: 1, element_token: "s00000001:0" })) as ToolResult;
    expect(stale.isError).toBe(true);
    expect((stale.structuredContent?.refusal as { code: string } | undefined)?.code).toBe("stale_element_token");
  });

  it("the harness session fails closed on the real runtime: an empty desktop is partial, and input is refused", async () => {
    await using driver = await createSdkDriver({ version: "0.21.0" });
    const session = createHarnessSession({ driver, clock: manualClock() });
    const seen = await session.step({ action: "observe" });
    expect(seen.decision).toBe("verify_fresh_state");
    expect(seen.observation?.text).toContain("list_windows came back empty; that is not proof of no windows");
    const typed = await session.step({ action: "type_text", pid: 1, window_id: 1, text: "hello" });
    expect(typed).toMatchObject({ decision: "blocked", blockedBy: "window_unobserved", calls: [] });
  });
});
