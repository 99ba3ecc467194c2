import { BACKGROUND_ESCALATION_REASON, REFUSAL, readRefusalText } from "#src/driver/refusals.js";
import type { TrajectoryAction, TrajectoryState } from "#src/schema/trajectory.js";

/** A tool result rebuilt from a trajectory: the text block, the structuredContent when known, isError. */
export interface RebuiltResult {
  text?: string;
  structured?: Record<string, unknown>;
  isError: boolean;
}

// action_truth.escalation.kind → the ActionResult escalation the tool returned (seen at 0.21.0 on Linux).
const ESCALATIONS: Record<string, { reason: string; target: string }> = {
  retry_with_foreground_delivery: { reason: "delivery_failed", target: "foreground" },
};

/** The structuredContent of a refusal whose text determines it (the driver model reads the text). */
function refusalFromText(text: string, action: TrajectoryAction): Record<string, unknown> | undefined {
  const read = readRefusalText(text);
  if (!read) return undefined;
  if (read.code !== REFUSAL.background_unavailable) return { refusal: { code: read.code, message: read.message }, status: "refused" };
  return {
    code: read.code,
    detail: read.detail,
    escalation: {
      reason: action.action_truth?.escalation?.detail ?? BACKGROUND_ESCALATION_REASON,
      recommended: "foreground",
    },
    suggestion: read.suggestion,
  };
}

/**
 * Rebuilds the result of a recorded action from action.json. The text is exact (result_summary is
 * the text block). structuredContent is rebuilt from action_truth for successes and from the text
 * for the refusals whose shape the text determines; anything else stays text-only, as the driver
 * itself does for errors without a structured shape. `unmapped` lists what could not be rebuilt.
 */
export function rebuildActionResult(action: TrajectoryAction): RebuiltResult & { unmapped: string[] } {
  const unmapped: string[] = [];
  const text = action.result_summary;
  if (action.result_error) {
    const structured = refusalFromText(text, action);
    if (structured) return { text, structured, isError: true, unmapped };
    return { text, isError: true, unmapped };
  }
  const truth = action.action_truth;
  if (!truth) {
    unmapped.push("no action_truth: structuredContent left out");
    return { text, isError: false, unmapped };
  }
  const structured: Record<string, unknown> = { effect: truth.effect, route: truth.route };
  if (truth.effect !== "refused") {
    structured.delivery = {
      mode: truth.actual_delivery ?? "unknown",
      ...(typeof truth.delivered_count === "number" ? { delivered_count: truth.delivered_count } : {}),
    };
  }
  const evidence = (truth.evidence ?? []).flatMap((e) =>
    e && typeof e === "object" && typeof (e as { kind?: unknown }).kind === "string" ? [{ kind: (e as { kind: string }).kind }] : [],
  );
  if (evidence.length > 0) structured.evidence = evidence;
  if (truth.escalation) {
    const mapped = ESCALATIONS[truth.escalation.kind];
    if (mapped) structured.escalation = { ...mapped };
    else unmapped.push(`escalation kind "${truth.escalation.kind}" has no known ActionResult form: escalation left out`);
  }
  return { text, structured, isError: false, unmapped };
}

/** PNG width and height from the IHDR chunk. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * Rebuilds a `get_window_state {pid, window_id}` result from a before/after state. Only the fields
 * the trajectory holds come back: element_count, pid, tree_markdown, window_id and the screenshot
 * facts. `elements`, `snapshot_id` and element tokens were never recorded and stay absent.
 */
export function rebuildWindowState(options: { state: TrajectoryState; png?: Uint8Array }): { structured: Record<string, unknown> } {
  const { state, png } = options;
  const structured: Record<string, unknown> = {
    element_count: state.element_count,
    pid: state.pid,
    tree_markdown: state.tree_markdown,
    window_id: state.window_id,
  };
  if (png) {
    const size = pngSize(png);
    structured.screenshot_height = size.height;
    structured.screenshot_mime_type = "image/png";
    structured.screenshot_width = size.width;
  }
  return { structured };
}
