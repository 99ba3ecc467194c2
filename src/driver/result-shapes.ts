/**
 * The shapes of results the driver gives without a recorded exchange to copy: a tool's own empty
 * answer (what the `empty` fault serves, docs/faults.md) and the session lifecycle answers
 * (captured from the 0.21.0 runtime). `src/faults/empty.ts` and the replay's lifecycle answers
 * build the bytes from these.
 */

// --- empty results ---

/** `list_windows` with no windows. */
export const EMPTY_WINDOW_LIST = { content: [{ text: "Found 0 windows:", type: "text" }], structuredContent: { windows: [] } } as const;

/** `get_window_state` with no elements: these fields, zeroed (kept from a recorded result when it has them). */
export const EMPTY_WINDOW_STATE_FIELDS = { element_count: 0, elements: [], returned_element_count: 0, total_element_count: 0, tree_markdown: "" } as const;

/** The looks whose empty form is their recorded result without images (`get_window_state` also without elements). */
export const EMPTIED_LOOKS: ReadonlySet<string> = new Set(["get_window_state", "get_desktop_state"]);

/** Whether a structuredContent key carries the screenshot (dropped from an emptied look). */
export function isScreenshotKey(key: string): boolean {
  return key.startsWith("screenshot_");
}

// --- session lifecycle results ---

type Structured = Record<string, unknown>;

/**
 * The driver's own `start_session` fields for a fresh or revived label (docs/reference/cua-driver-contract.md §3.4, captured from
 * the 0.21.0 runtime). 0.24.0 adds the required `desktop_capture_authorized`, whose value the reference does
 * not hold: for those versions only a recorded answer can serve as the template.
 */
const START_SESSION_0_21: Structured = {
  active: true,
  capture_scope: "auto",
  desktop_unlocked: false,
  effective_scope: "window",
  escalation_detail: null,
  escalation_reason: null,
  revived: false,
  session: "",
};

/** Versions whose `start_session` answer the reference above describes exactly. */
const START_SESSION_REFERENCE_VERSIONS = /^0\.(2[0-3])\./;

/** The content text the driver puts beside the structured lifecycle answer (the 0.21.0 runtime, over MCP); undefined for another tool. */
export function lifecycleText(tool: string, label: string): string | undefined {
  if (tool === "start_session") return `✅ Session '${label}' is active.`;
  if (tool === "end_session") return `✅ Session '${label}' ended.`;
  return undefined;
}

/**
 * The reference structured answer of `start_session` / `end_session` for the recorded driver
 * version, with `session` still to fill in; undefined when the reference does not describe it.
 */
export function referenceLifecycleStructured(tool: string, driverVersion: string): Structured | undefined {
  if (tool === "end_session") return { active: false, session: "" };
  if (tool === "start_session" && START_SESSION_REFERENCE_VERSIONS.test(driverVersion)) return { ...START_SESSION_0_21 };
  return undefined;
}
