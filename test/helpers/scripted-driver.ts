import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Clock, ToolResult } from "#src/driver/port.js";
import { repoRoot } from "./run-cli.js";

// The scripted Driver itself is public (`cua-contract/testing`); these helpers feed it real 0.21.0 replies.
export { scriptedDriver, type Script, type ScriptedDriver } from "#src/testing/scripted-driver.js";

const REPLIES = path.join(repoRoot, "test/fixtures/driver-replies-0.21");

/** A real 0.21.0 tool result from test/fixtures/driver-replies-0.21 (file name without .result.json). */
export function captured(name: string): ToolResult {
  return JSON.parse(readFileSync(path.join(REPLIES, `${name}.result.json`), "utf8")) as ToolResult;
}

export function capturedNames(): string[] {
  return readdirSync(REPLIES)
    .filter((f) => f.endsWith(".result.json"))
    .map((f) => f.replace(/\.result\.json$/, ""));
}

/** A clock that never waits: `sleep` advances `now` at once. */
export function manualClock(start = 0): Clock & { slept: number[] } {
  let now = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    async sleep(ms) {
      slept.push(ms);
      now += ms;
    },
  };
}

/** list_windows with the given windows, shaped like 0.21.0's reply. */
export function windowsReply(
  windows: { window_id: number; pid?: number; x: number; y: number; width: number; height: number; z_index?: number; title?: string }[],
): ToolResult {
  const rows = windows.map((w) => ({
    app_name: "Gtk3-demo",
    bounds: { height: w.height, width: w.width, x: w.x, y: w.y },
    height: w.height,
    is_on_screen: true,
    pid: w.pid ?? 24132,
    title: w.title ?? "Application Class",
    width: w.width,
    window_id: w.window_id,
    x: w.x,
    y: w.y,
    z_index: w.z_index ?? 0,
  }));
  return {
    content: [{ type: "text", text: `Found ${rows.length} windows:` }],
    structuredContent: { windows: rows },
  };
}
