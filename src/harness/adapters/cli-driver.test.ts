import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../test/helpers/run-cli.js";
import { captured } from "../../../test/helpers/scripted-driver.js";
import { isTransportFailure, type ToolResult } from "../../driver/port.js";
import { classifyActionResult } from "../core/verdict.js";
import { createCliDriver } from "./cli-driver.js";
import { parseCallFailure, parseCallStdout, parseListTools } from "../../wire/cli/stdout.js";

const FAKE = path.join(repoRoot, "test/fixtures/drivers/cua-driver-0.21.0");
const index = (set: string) =>
  JSON.parse(readFileSync(path.join(repoRoot, `test/fixtures/driver-replies-0.21/${set}-_index.json`), "utf8")) as { file: string; tool: string; arguments: Record<string, unknown> }[];

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

describe("CLI output parsing", () => {
  it("merges screenshot_png_b64 back into an image block", () => {
    const r = parseCallStdout("zoom", JSON.stringify({ screenshot_png_b64: "AAAA", screenshot_mime_type: "image/jpeg", width: 1 }, null, 2));
    expect(r.content[1]).toEqual({ type: "image", data: "AAAA", mimeType: "image/jpeg" });
    expect(r.isError).toBeUndefined();
  });

  it("text-only stdout is an error for a tool that always answers with structuredContent, and plain text otherwise", () => {
    expect(parseCallStdout("click", "desktop-scope click failed\n").isError).toBe(true);
    expect(parseCallStdout("health_report", "✅ ok\n").isError).toBeUndefined();
  });

  it.each([
    ["Cua Driver daemon request on /s failed: daemon closed connection without response", "daemon_died"],
    ["Cua Driver daemon request on /s failed: timed out after 120s waiting for daemon response (received 0 bytes so far)", "timeout"],
    ["Cua Driver daemon is not running on /s.\nStart it first with: cua-driver serve --socket /s", "transport_error"],
    ["Cua Driver daemon on /s is incompatible: contract", "transport_error"],
  ])("exit 1 with %j is %s", (stderr, kind) => {
    expect(parseCallFailure("click", 1, stderr)).toMatchObject({ kind });
  });

  it.each([
    [1, "Permission denied: tool 'x' has no reviewed risk classification"],
    [1, "session 'demo' has ended; tool call 'click' was rejected. Call start_session …"],
    [64, "Unknown tool: debug_window_info"],
    [2, "error: positional JSON arg to 'cua-driver call' did not parse"],
  ])("exit %d with a tool-level message is an isError result carrying the exit code", (code, stderr) => {
    expect(parseCallFailure("x", code, stderr)).toEqual({ content: [{ type: "text", text: stderr }], structuredContent: { exit_code: code }, isError: true });
  });

  it("list-tools lines with and without a sentence", () => {
    expect(parseListTools("click: Click a target\nzoom\n\n")).toEqual([{ name: "click", description: "Click a target" }, { name: "zoom" }]);
  });
});
