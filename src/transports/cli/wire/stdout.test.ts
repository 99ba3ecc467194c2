import { describe, expect, it } from "vitest";
import { renderCall } from "./render-call.js";
import { parseCallFailure, parseCallStdout, parseListTools, resultFromCliStdout } from "./stdout.js";

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

describe("resultFromCliStdout", () => {
  it("rebuilds structuredContent, the merged image as a block, and a refusal as isError", () => {
    const stdout = '{\n  "code": "stale_element_token",\n  "screenshot_mime_type": "image/png",\n  "screenshot_png_b64": "QQ=="\n}\n';
    const raw = resultFromCliStdout({ stdout, tool: "click" });
    expect(raw).toBe(
      `{"content":[{"text":${JSON.stringify(stdout.slice(0, -1))},"type":"text"},{"data":"QQ==","mimeType":"image/png","type":"image"}],"isError":true,"structuredContent":{"code":"stale_element_token","screenshot_mime_type":"image/png"}}`,
    );
    expect(renderCall({ raw }).stdout).toBe(stdout);
  });

  it("makes text-only stdout one text block, an error for a tool that is structured on success", () => {
    expect(resultFromCliStdout({ stdout: "no display\n", tool: "list_windows" })).toBe('{"content":[{"text":"no display","type":"text"}],"isError":true}');
    expect(resultFromCliStdout({ stdout: "ok\n", tool: "health_report" })).toBe('{"content":[{"text":"ok","type":"text"}]}');
    expect(resultFromCliStdout({ stdout: "", tool: "click" })).toBe('{"content":[]}');
  });
});
