import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../test/helpers/run-cli.js";
import { captured } from "../../../test/helpers/scripted-driver.js";
import { isTransportFailure, type ToolResult } from "#src/driver/port.js";
import { classifyActionResult } from "#src/harness/core/verdict.js";
import { createCliDriver } from "./driver.js";

const FAKE = path.join(repoRoot, "test/fixtures/drivers/cua-driver-0.21.0");
const index = (set: string) =>
  JSON.parse(readFileSync(path.join(repoRoot, `test/fixtures/driver-replies-0.21/${set}-_index.json`), "utf8")) as {
    file: string;
    tool: string;
    arguments: Record<string, unknown>;
  }[];

/** Real 0.21.0 results whose CLI rendering the adapter must read back to the same verdict and isError. */
const CASES = [
  ["headless", "01_get_screen_size_no_display"],
  ["headless", "03_list_windows_no_display"],
  ["headless", "07_click_pid_without_windows"],
  ["headless", "08_click_stale_element_token"],
  ["headless", "09_click_desktop_target_no_display"],
  ["headless", "18_verify_state_invalid_arguments"],
  ["xvfb", "01_list_windows"],
  ["xvfb", "11_click_element_token"],
  ["xvfb", "13_click_bare_element_index_refused"],
  ["xvfb", "18_click_target_mixed_with_legacy_pid"],
  ["xvfb", "22_press_key_background_unavailable"],
  ["xvfb", "25_type_text_pid_window"],
  ["xvfb", "28_verify_state_empty_expect"],
  ["xvfb", "29_set_window_frame_confirmed"],
] as const;

describe("CLI driver against the fake cua-driver 0.21.0", () => {
  it.each(CASES)("%s %s: same isError, structuredContent and verdict as the MCP result", async (set, name) => {
    const entry = index(set).find((e) => e.file === `${name}.result.json`)!;
    const driver = createCliDriver({ command: FAKE, env: set === "headless" ? { FAKE_CUA_DRIVER_DISPLAY: "none" } : {} });
    const got = await driver.call(entry.tool, entry.arguments);
    const want = captured(`${set}-${name}`);
    expect(isTransportFailure(got)).toBe(false);
    const result = got as ToolResult;
    expect(result.isError === true).toBe(want.isError === true);
    if (want.structuredContent) expect(result.structuredContent).toEqual(want.structuredContent);
    else expect(result.content[0]).toEqual(want.content[0]);
    const cli = classifyActionResult(result, { tool: entry.tool });
    const mcp = classifyActionResult(want, { tool: entry.tool });
    expect({ ...cli, note: undefined }).toEqual({ ...mcp, note: undefined });
    expect(cli.note).not.toContain("{"); // the CLI drops the text block; the note never quotes raw JSON
  });

  it("a daemon that is not running is a transport error, not a refusal", async () => {
    const r = await createCliDriver({ command: FAKE, env: { FAKE_CUA_DRIVER_DAEMON: "down" } }).call("click", { pid: 1 });
    expect(r).toMatchObject({ kind: "transport_error", tool: "click" });
    expect((r as { message: string }).message).toMatch(/Cua Driver daemon is not running on/);
  });

  it("a call that hangs past the deadline is a timeout", async () => {
    const r = await createCliDriver({ command: FAKE, env: { FAKE_CUA_DRIVER_DELAY_MS: "20000" } }).call("click", { pid: 1 }, { timeoutMs: 1000 });
    expect(r).toMatchObject({ kind: "timeout", tool: "click" });
  });

  it("a missing executable is a transport error naming it", async () => {
    const r = await createCliDriver({ command: "/nonexistent/cua-driver" }).call("list_windows", {});
    expect(r).toMatchObject({ kind: "transport_error" });
    expect((r as { message: string }).message).toContain("/nonexistent/cua-driver call list_windows");
  });

  it("lists the 0.21.0 tools by name", async () => {
    const tools = await createCliDriver({ command: FAKE }).listTools();
    expect(tools).toHaveLength(60);
    expect(tools.find((t) => t.name === "hotkey")?.description).toBe("Press a combination of keys simultaneously, e.g");
  });
});
