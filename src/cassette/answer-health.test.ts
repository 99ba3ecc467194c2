import { describe, expect, it } from "vitest";
import type { CassetteEvent } from "#src/schema/cassette.js";
import { answerHealth } from "./answer-health.js";

const NO_DISPLAY =
  "$DISPLAY variable not set and no value was provided explicitly — no usable display detected: neither $DISPLAY (X11) nor $WAYLAND_DISPLAY is set. Start an X server / Wayland compositor (or Xvfb for headless) before running cua-driver.";

let seq = 1;
const cli = (tool: string, stdout: string, exitCode = 0, stderr = ""): CassetteEvent =>
  ({ seq: ++seq, t_ms: seq, origin: "harness", kind: "cli", duration_ms: 1, argv: ["call", tool, "{}"], stdout, stderr, exit_code: exitCode }) as CassetteEvent;
const mcp = (dir: "c2s" | "s2c", message: unknown, stream = 0): CassetteEvent =>
  ({ seq: ++seq, t_ms: seq, origin: "harness", kind: "mcp", stream, dir, line: JSON.stringify(message) }) as CassetteEvent;

function warnings(events: CassetteEvent[]): string[] {
  const health = answerHealth();
  for (const e of events) health.add(e);
  return health.warnings();
}

describe("answerHealth", () => {
  it("says so when every call answered no display or came back empty, naming the cause and the fix", () => {
    const w = warnings([cli("get_screen_size", `${NO_DISPLAY}\n`), cli("list_windows", '{\n  "windows": []\n}\n'), cli("list_windows", '{"windows":[]}')]);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(
      /^none of the harness's 3 tool calls got a usable answer: get_screen_size answered "\$DISPLAY variable not set.*" \(1\); list_windows came back empty \(2\)\./,
    );
    expect(w[0]).toContain("Likely cause: no display");
    expect(w[0]).toContain("Record with --desktop");
  });

  it("names a driver that is not running", () => {
    const w = warnings([cli("list_windows", "", 1, "Cua Driver daemon is not running on /tmp/s.\nStart it first with: cua-driver serve --socket /tmp/s\n")]);
    expect(w).toEqual([
      expect.stringContaining('the harness\'s one tool call got no usable answer: list_windows answered "Cua Driver daemon is not running on /tmp/s."'),
    ]);
    expect(w[0]).toContain("Likely cause: the driver is not running");
  });

  it("warns about one kind of call that always failed the same way while others worked", () => {
    const w = warnings([
      cli("list_windows", '{"windows":[{"pid":1,"window_id":2}]}'),
      cli("screenshot", "", 1, "Capture error: no frame\n"),
      cli("screenshot", "", 1, "Capture error: no frame\n"),
    ]);
    expect(w).toEqual(['all 2 screenshot calls answered "Capture error: no frame". Likely cause: the answer above.']);
  });

  it("reads MCP answers by request id, and says nothing about a healthy run or a single ordinary error", () => {
    const call = (id: number, name: string) => mcp("c2s", { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });
    const empty = (id: number) => mcp("s2c", { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "{}" }], structuredContent: { windows: [] } } });
    expect(warnings([call(1, "list_windows"), empty(1), call(2, "list_windows"), empty(2)])).toEqual([
      expect.stringMatching(
        /^none of the harness's 2 tool calls got a usable answer: list_windows came back empty \(2\)\. Likely cause: no display or no application open/,
      ),
    ]);
    const ok = mcp("s2c", { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "ok" }], structuredContent: { windows: [{ pid: 1 }] } } });
    const refused = mcp("s2c", { jsonrpc: "2.0", id: 4, result: { content: [{ type: "text", text: "Element not found" }], isError: true } });
    expect(warnings([call(3, "list_windows"), ok, call(4, "click"), refused])).toEqual([]);
    expect(warnings([])).toEqual([]);
  });

  it("leaves the recorder's own calls out", () => {
    const own = { ...cli("get_screen_size", NO_DISPLAY), origin: "recorder" } as CassetteEvent;
    expect(warnings([own, cli("list_windows", '{"windows":[{"pid":1}]}')])).toEqual([]);
  });
});
