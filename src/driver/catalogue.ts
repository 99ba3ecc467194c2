import { satisfies } from "#src/util/versions.js";
import type { ToolInfo } from "./port.js";

/**
 * The one table of cua-driver's tools and what the toolkit knows about each (docs/decisions/0131).
 * Every tool list elsewhere is derived from it; a new driver tool is one row here.
 * Checked against the real Linux tools/list of 0.20.0, 0.21.0, 0.22.0, 0.22.2, 0.24.0 and 0.28.2
 * (`catalogue.test.ts`): the same 59 runtime tools in each, plus the CLI-hosted `check_for_update`.
 */
export type ToolFlag =
  /** In tools/list on Linux (MCP) in every release 0.20.0–0.28.2 (docs/reference/cua-driver-contract.md §4.1). */
  | "listed"
  /** Listed, but registered by the `cua-driver` binary on top of the runtime's inventory. */
  | "cli-host"
  /**
   * Not listed, yet risk-classified, so the binary answers `Unknown tool` (exit 64) rather than
   * `permission_denied` for it: the `type_text_chars` alias, other platforms' and preview tools.
   */
  | "classified-unlisted"
  /** MCP annotation readOnlyHint=true (the same in every release 0.20.0–0.28.2). */
  | "read-only"
  /** A successful structuredContent is the ActionResult contract (docs/reference/cua-driver-contract.md §3.1). */
  | "action-result"
  /**
   * Delivers input to a window (the invariants' meaning): the ActionResult tools minus window
   * geometry, and `type_secret`, which types the secret a handle stands for into a target
   * (`type_secret(handle, field, target)`, docs/discoveries/modern-mcp-era.md) whatever its result is.
   */
  | "input"
  /** Acts at raw coordinates: the reference harness refuses `x`/`y` for it through a generic call. */
  | "pointer"
  /**
   * Has its own guarded action in the reference harness (HarnessAction), so a generic `call` of it
   * is refused: the action applies the guards (the harness's meaning of "input tools").
   */
  | "harness-action"
  /** Read-only, and its result shows the screen or a window: what counts as a fresh look. */
  | "observation"
  /**
   * A successful result always carries structuredContent (0.21, from captured results): text-only
   * `cua-driver call` stdout from it can only be an error. A conservative subset of the tools with
   * an outputSchema (plus get_window_state, which has structuredContent without one before 0.28).
   */
  | "structured-on-success"
  /** Opens or closes a driver session: rebuilds state rather than acting on the screen, never revived. */
  | "session-lifecycle"
  /**
   * Changes or shows which session a call runs in, never what is on screen, so a recording can
   * answer it at another point in time (docs/decisions/0014).
   */
  | "session-state"
  /**
   * A health or session-status read: it keeps answering while the session is expired, and never
   * refreshes the session's idle time (the `session_expired` fault, docs/faults.md).
   */
  | "health"
  /**
   * Not in any release 0.20.0–0.28.2: named by the roster read from the driver's source at
   * trycua/cua `bf3affc1` (`contracts/snapshots/source-bf3affc1.probe.json`, docs/decisions/0255).
   * Its schemas and annotations were not seen, so no flag is claimed for it from them; only what it
   * does, read from its design: `type_secret` types into a target (`input`).
   */
  | "after-0.28.2"
  /**
   * Hands out or spends an opaque credential handle (`find_credentials` returns handles,
   * `type_secret` delivers the secret one stands for): every handle in its arguments or result is
   * redacted like typed text (docs/cassettes.md).
   */
  | "credential";

export interface ToolRecord {
  name: string;
  flags: ReadonlySet<ToolFlag>;
  /** The tool this name is an alias of (the driver maps it before dispatch). */
  aliasOf?: string;
}

type Row = readonly ToolFlag[] | { flags: readonly ToolFlag[]; aliasOf: string };

const ACTION = ["listed", "action-result", "input", "structured-on-success"] as const;
const POINTER = [...ACTION, "pointer"] as const;
const READ = ["listed", "read-only"] as const;
const LOOK = [...READ, "observation"] as const;

const TABLE: Record<string, Row> = {
  bring_to_front: ["listed"],
  browser_click: ACTION,
  browser_dialog: ["listed"],
  browser_download: ["listed"],
  browser_navigate: ["listed"],
  browser_pointer: ACTION,
  browser_prepare: ["listed"],
  browser_set_input_files: ["listed"],
  browser_type: ACTION,
  check_for_update: [...READ, "cli-host"],
  check_permissions: [...READ, "health"],
  click: [...ACTION, "harness-action"],
  clipboard_read: READ,
  clipboard_write: ["listed"],
  debug_window_info: ["classified-unlisted"],
  double_click: POINTER,
  drag: POINTER,
  end_session: ["listed", "structured-on-success", "session-lifecycle", "session-state"],
  escalate_session: ["listed"],
  find_credentials: ["after-0.28.2", "credential"],
  get_accessibility_tree: LOOK,
  get_agent_cursor_state: READ,
  get_browser_state: LOOK,
  get_config: [...READ, "health"],
  get_cursor_position: [...READ, "structured-on-success"],
  get_desktop_state: [...LOOK, "structured-on-success"],
  get_recording_state: READ,
  get_screen_size: [...READ, "structured-on-success"],
  get_session: [...READ, "structured-on-success", "session-state", "health"],
  get_session_state: [...READ, "session-state", "health"],
  get_window_state: [...LOOK, "structured-on-success", "harness-action"],
  health_report: [...READ, "health"],
  history_query: ["classified-unlisted"],
  history_status: ["classified-unlisted"],
  hotkey: [...ACTION, "harness-action"],
  install_ffmpeg: ["listed"],
  invoke_menu: ACTION,
  kill_app: ["listed"],
  launch_app: ["listed"],
  list_apps: READ,
  list_sessions: [...READ, "structured-on-success", "session-state", "health"],
  list_windows: [...LOOK, "structured-on-success", "harness-action"],
  mouse_button_down: POINTER,
  mouse_button_up: POINTER,
  mouse_drag: POINTER,
  move_cursor: POINTER,
  page: ["listed"],
  parallel_mouse_drag: POINTER,
  press_key: [...ACTION, "harness-action"],
  replay_trajectory: ["listed"],
  right_click: POINTER,
  // not in any Linux list 0.20.0–0.28.2, nor classified; a look wherever a harness calls it
  screenshot: ["observation"],
  scroll: POINTER,
  set_agent_cursor_enabled: ["listed"],
  set_agent_cursor_motion: ["listed"],
  set_agent_cursor_theme: ["listed"],
  set_config: ["listed"],
  set_value: ACTION,
  set_window_frame: ["listed", "action-result", "structured-on-success", "harness-action"],
  start_recording: ["listed"],
  start_session: ["listed", "structured-on-success", "session-lifecycle", "session-state"],
  stop_recording: ["listed"],
  type_secret: ["after-0.28.2", "credential", "input"],
  type_text: [...ACTION, "harness-action"],
  type_text_chars: { flags: ["classified-unlisted", "action-result", "input", "structured-on-success", "harness-action"], aliasOf: "type_text" },
  verify_state: [...LOOK, "structured-on-success"],
  zoom: LOOK,
};

/** Every tool the toolkit knows, by name (sorted). */
export const TOOL_CATALOGUE: ReadonlyMap<string, ToolRecord> = new Map(
  Object.keys(TABLE)
    .sort()
    .map((name) => {
      const row = TABLE[name]!;
      const record: ToolRecord =
        "aliasOf" in row ? { name, flags: new Set(row.flags), aliasOf: row.aliasOf } : { name, flags: new Set(row as readonly ToolFlag[]) };
      return [name, record] as const;
    }),
);

/** Whether the catalogue gives `tool` this flag (false for a tool it does not know). */
export function hasFlag(tool: string | undefined, flag: ToolFlag): boolean {
  return tool !== undefined && (TOOL_CATALOGUE.get(tool)?.flags.has(flag) ?? false);
}

/** The names with a flag, in name order. */
export function toolsWith(flag: ToolFlag): string[] {
  return [...TOOL_CATALOGUE.values()].filter((t) => t.flags.has(flag)).map((t) => t.name);
}

/** The tools cua-driver lists on Linux over MCP (59 runtime tools and `check_for_update`); used when a cassette carries no probe. */
export const KNOWN_TOOLS_0_21: readonly string[] = toolsWith("listed");
/** The releases whose Linux tools/list every `listed` row is checked against (`catalogue.test.ts`), first and last. */
export const LISTED_RELEASES = { first: "0.20.0", last: "0.28.2" } as const;

/**
 * The tools a cua-driver of this version lists on Linux over MCP, as far as the catalogue knows them:
 * the `listed` tools for a release 0.20.0–0.28.2; after 0.28.2, those and the `after-0.28.2` tools
 * (read from source, release unknown: a newer driver may list them). Undefined for an earlier
 * release, another platform or a version that is not `x.y.z`: the catalogue has no list for it.
 */
export function listedToolsFor(options: { version: string | null | undefined; platform?: string }): { names: string[]; note: string } | undefined {
  const { version, platform } = options;
  if (!version || (platform !== undefined && !platform.startsWith("linux"))) return undefined;
  const { first, last } = LISTED_RELEASES;
  if (satisfies(version, `>=${first} <=${last}`)) return { names: toolsWith("listed"), note: `the same in every release ${first}–${last}` };
  if (satisfies(version, `>${last}`)) {
    const names = [...toolsWith("listed"), ...toolsWith("after-0.28.2")].sort();
    return { names, note: `the ${last} tools and those read from source after ${last}` };
  }
  return undefined;
}
/** The read-only tools among them (readOnlyHint=true); used when a cassette carries no probe to take annotations from. */
export const READ_ONLY_TOOLS_0_21: ReadonlySet<string> = new Set(toolsWith("read-only"));
export const ACTION_RESULT_TOOLS: ReadonlySet<string> = new Set(toolsWith("action-result"));
export const STRUCTURED_ON_SUCCESS: ReadonlySet<string> = new Set(toolsWith("structured-on-success"));

/**
 * Argument keys that name a session or a file path rather than what the call does: a session label
 * and an out-file path change from run to run, so two calls that differ only in them are the same call.
 */
export const VOLATILE_ARG_KEYS: readonly string[] = ["session", "screenshot_out_file"];

/**
 * The reference harness's actions that send input (a harness action for a tool that is not
 * read-only; an alias counts as its target).
 */
export const HARNESS_MUTATING_ACTIONS: ReadonlySet<string> = new Set(
  toolsWith("harness-action")
    .filter((t) => !hasFlag(t, "read-only"))
    .map((t) => harnessActionFor(t)!),
);

/** Whether a tool is read-only: from the driver's own annotations when given, else the catalogue. */
export function isReadOnlyTool(tool: string, tools?: readonly ToolInfo[]): boolean {
  const info = tools?.find((t) => t.name === tool);
  if (info?.annotations?.readOnlyHint !== undefined) return info.annotations.readOnlyHint;
  return READ_ONLY_TOOLS_0_21.has(tool);
}

/** The reference harness's own action for a tool (an alias names its target's), or undefined. */
export function harnessActionFor(tool: string): string | undefined {
  const record = TOOL_CATALOGUE.get(tool);
  return record?.flags.has("harness-action") ? (record.aliasOf ?? record.name) : undefined;
}

/**
 * The names the binary has a risk classification for, given the names it registers: those, and the
 * classified names outside any inventory (CLI-host, alias, other platforms, history preview).
 */
export function classifiedNames(registered: Iterable<string>): Set<string> {
  return new Set([...registered, ...toolsWith("cli-host"), ...toolsWith("classified-unlisted")]);
}
