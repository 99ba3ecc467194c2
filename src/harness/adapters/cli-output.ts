import type { Reply, ToolResult } from "../../driver/port.js";
import { ACTION_RESULT_TOOLS } from "../../driver/tool-kinds.js";

/**
 * Tools whose successful result always carries structuredContent in 0.21 (the ActionResult tools
 * and the observation and session tools). `cua-driver call` drops `isError`, so text-only stdout
 * from one of these can only be an error (a missing display, a missing argument, …).
 */
export const STRUCTURED_ON_SUCCESS: ReadonlySet<string> = new Set([
  ...ACTION_RESULT_TOOLS,
  "list_windows", "get_window_state", "get_desktop_state", "get_screen_size", "get_cursor_position",
  "start_session", "end_session", "get_session", "list_sessions", "verify_state",
]);

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A refusal envelope as CONTRACT.md §3.2 describes it: `refusal`, `status: refused`, a flat `code`, or `effect: refused`. */
export function looksLikeRefusal(structured: Record<string, unknown>): boolean {
  if (isRecord(structured.refusal) || structured.status === "refused" || structured.effect === "refused") return true;
  return typeof structured.code === "string" && structured.effect === undefined;
}

/**
 * Rebuilds a tool result from `cua-driver call` stdout (exit 0): pretty structuredContent when the
 * result had one (with the last image merged as `screenshot_png_b64`), else the text blocks.
 */
export function parseCallStdout(tool: string, stdout: string): ToolResult {
  const text = stdout.replace(/\n$/, "");
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    try {
      const structured: unknown = JSON.parse(trimmed);
      if (isRecord(structured)) {
        const result: ToolResult = { content: [{ type: "text", text }], structuredContent: structured, raw: stdout };
        if (typeof structured.screenshot_png_b64 === "string") {
          const mimeType = typeof structured.screenshot_mime_type === "string" ? structured.screenshot_mime_type : "image/png";
          result.content.push({ type: "image", data: structured.screenshot_png_b64, mimeType });
        }
        if (looksLikeRefusal(structured)) result.isError = true;
        return result;
      }
    } catch {
      // not JSON after all: the text blocks
    }
  }
  const result: ToolResult = { content: [{ type: "text", text }], raw: stdout };
  if (STRUCTURED_ON_SUCCESS.has(tool)) result.isError = true;
  return result;
}

/** A non-zero exit of `cua-driver call`, from its stderr (CONTRACT.md §1.6 exit-code table). */
export function parseCallFailure(tool: string, exitCode: number, stderr: string): Reply {
  const message = stderr.trim();
  if (/daemon closed connection without response/.test(message)) return { kind: "daemon_died", tool, message };
  if (/timed out after \d+s waiting for daemon response/.test(message)) return { kind: "timeout", tool, message };
  if (/daemon request on .* failed|is not running on|is incompatible/.test(message)) return { kind: "transport_error", tool, message };
  return {
    content: [{ type: "text", text: message || `cua-driver call ${tool} exited ${exitCode}` }],
    structuredContent: { exit_code: exitCode },
    isError: true,
  };
}

/** `cua-driver list-tools` lines (`name: first sentence`, or just `name`). */
export function parseListTools(stdout: string): { name: string; description?: string }[] {
  return stdout
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /^[a-z_][a-z0-9_]*(:|$)/.test(line))
    .map((line) => {
      const at = line.indexOf(":");
      if (at < 0) return { name: line };
      const description = line.slice(at + 1).trim();
      return description ? { name: line.slice(0, at), description } : { name: line.slice(0, at) };
    });
}
