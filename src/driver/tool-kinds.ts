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

/**
 * The tools cua-driver 0.21.0 lists on Linux over MCP (the 59 SDK tools plus the CLI-host
 * `check_for_update`; CONTRACT.md §4.1). Used when a cassette carries no probe.
 */
export const KNOWN_TOOLS_0_21: readonly string[] = [
  "bring_to_front",
  "browser_click",
  "browser_dialog",
  "browser_download",
  "browser_navigate",
  "browser_pointer",
  "browser_prepare",
  "browser_set_input_files",
  "browser_type",
  "check_for_update",
  "check_permissions",
  "click",
  "clipboard_read",
  "clipboard_write",
  "double_click",
  "drag",
  "end_session",
  "escalate_session",
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
  "hotkey",
  "install_ffmpeg",
  "invoke_menu",
  "kill_app",
  "launch_app",
  "list_apps",
  "list_sessions",
  "list_windows",
  "mouse_button_down",
  "mouse_button_up",
  "mouse_drag",
  "move_cursor",
  "page",
  "parallel_mouse_drag",
  "press_key",
  "replay_trajectory",
  "right_click",
  "scroll",
  "set_agent_cursor_enabled",
  "set_agent_cursor_motion",
  "set_agent_cursor_theme",
  "set_config",
  "set_value",
  "set_window_frame",
  "start_recording",
  "start_session",
  "stop_recording",
  "type_text",
  "verify_state",
  "zoom",
];

/** Tools whose successful structuredContent is the ActionResult contract (CONTRACT.md §3.1). */
export const ACTION_RESULT_TOOLS: ReadonlySet<string> = new Set([
  "click",
  "double_click",
  "right_click",
  "scroll",
  "drag",
  "mouse_drag",
  "parallel_mouse_drag",
  "move_cursor",
  "mouse_button_down",
  "mouse_button_up",
  "type_text",
  "type_text_chars",
  "press_key",
  "hotkey",
  "set_value",
  "set_window_frame",
  "invoke_menu",
  "browser_click",
  "browser_pointer",
  "browser_type",
]);

/** Whether a tool is read-only: from the driver's own annotations when given, else the 0.21 list. */
export function isReadOnlyTool(tool: string, tools?: readonly ToolInfo[]): boolean {
  const info = tools?.find((t) => t.name === tool);
  if (info?.annotations?.readOnlyHint !== undefined) return info.annotations.readOnlyHint;
  return READ_ONLY_TOOLS_0_21.has(tool);
}
