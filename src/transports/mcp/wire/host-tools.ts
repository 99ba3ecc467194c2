/**
 * Tools the `cua-driver` binary registers on top of the runtime's inventory: `check_for_update`,
 * last (history_runtime.rs:419-422 via main.rs:284-298). The published runtime's `listToolsJson()`
 * does not have it, so a tools/list built from the runtime adds it here.
 */
import { CHECK_FOR_UPDATE_ENTRY } from "#src/driver/update-check.js";
import { CHECK_FOR_UPDATE_ENTRY_JSON } from "#src/transports/cli/wire/update-check.js";

/** A parsed tools/list result with the binary's host tools appended when missing. */
export function withHostTools<T extends { tools?: unknown }>(result: T): T {
  const tools = Array.isArray(result.tools) ? (result.tools as { name?: unknown }[]) : [];
  if (tools.some((t) => t?.name === CHECK_FOR_UPDATE_ENTRY.name)) return result;
  return { ...result, tools: [...tools, CHECK_FOR_UPDATE_ENTRY] };
}

/**
 * The same on the runtime's raw tools/list bytes, every other byte kept: `tools` is the last key
 * (serde sorts keys), so the entry goes before the closing `]}`. Unchanged when the shape is not that.
 */
export function withHostToolsRaw(raw: string): string {
  if (raw.includes(`"name":"${CHECK_FOR_UPDATE_ENTRY.name}"`)) return raw;
  const close = raw.lastIndexOf("]");
  if (close < 0 || raw.slice(close + 1).trim() !== "}") return raw;
  const open = raw.lastIndexOf('"tools":[');
  if (open < 0) return raw;
  const empty = raw.slice(open + '"tools":['.length, close).trim() === "";
  return `${raw.slice(0, close)}${empty ? "" : ","}${CHECK_FOR_UPDATE_ENTRY_JSON}${raw.slice(close)}`;
}
