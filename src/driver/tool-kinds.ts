import type { ToolInfo } from "./port.js";

/**
 * Read-only tools of cua-driver 0.21.0 on Linux (MCP annotations readOnlyHint=true;
 * CONTRACT.md §4.1). Used when a cassette carries no probe to take annotations from.
 */
export const READ_ONLY_TOOLS_0_21: ReadonlySet<string> = new Set([
  "check_for_update",
  "check_permissions",
  "clipboard_read",
  "get_accessibility_tree",
  "get_agent_cursor_state",
  "get_browser_state",
  "get_config",
  "get_cursor_position",
  "get_desktop_state",
  "get_recording_state",
  "get_screen_size",
  "get_session",
  "get_session_state",
  "get_window_state",
  "health_report",
  "list_apps",
  "list_sessions",
  "list_windows",
  "verify_state",
  "zoom",
]);

/** Whether a tool is read-only: from the driver's own annotations when given, else the 0.21 list. */
export function isReadOnlyTool(tool: string, tools?: readonly ToolInfo[]): boolean {
  const info = tools?.find((t) => t.name === tool);
  if (info?.annotations?.readOnlyHint !== undefined) return info.annotations.readOnlyHint;
  return READ_ONLY_TOOLS_0_21.has(tool);
}
