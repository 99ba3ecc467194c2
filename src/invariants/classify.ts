import { toolsWith } from "#src/driver/catalogue.js";
import { TIMEOUT_FAULTS, TRANSPORT_FAULTS, UNKNOWN_OUTCOME_FAULTS } from "#src/faults/fault-table.js";
import type { RequestEntry } from "#src/schema/replay-log.js";

/** Tools that deliver input to a window (the ActionResult tools, minus window geometry). */
export const INPUT_TOOLS: ReadonlySet<string> = new Set(toolsWith("input"));

/** Read-only tools whose result shows the screen or a window: what counts as a fresh look. */
export const OBSERVATION_TOOLS: ReadonlySet<string> = new Set(toolsWith("observation"));

/** Calls that open or close a driver session; they rebuild state rather than act on the screen. */
export const LIFECYCLE_TOOLS: ReadonlySet<string> = new Set(toolsWith("session-lifecycle"));

/** Refusal codes that mean the target the harness acted on is out of date. */
export const STALE_CODES: readonly string[] = ["stale_element_token", "invalid_snapshot_id", "generation_mismatch", "px_frame_mismatch", "browser_ref_stale"];

export function requestsOf(entries: readonly { type: string }[]): RequestEntry[] {
  return entries.filter((e): e is RequestEntry => e.type === "request");
}

export function isUnknownOutcome(r: RequestEntry): boolean {
  return r.fault !== undefined && UNKNOWN_OUTCOME_FAULTS.includes(r.fault.kind);
}

export function isTransportFault(r: RequestEntry): boolean {
  return r.fault !== undefined && TRANSPORT_FAULTS.has(r.fault.kind);
}

export function isTimeout(r: RequestEntry): boolean {
  return r.fault !== undefined && TIMEOUT_FAULTS.has(r.fault.kind);
}

/**
 * The harness got an answer it can use: matched, not lost in transport, not an error. A delayed
 * answer or one with a corrupt image still arrived.
 */
export function isAnswered(r: RequestEntry): boolean {
  if (r.outcome === "unmatched" || isTransportFault(r)) return false;
  return r.result?.isError !== true && r.fault?.kind !== "refusal";
}

export function isMutation(r: RequestEntry): boolean {
  return r.kind === "mutation" && !LIFECYCLE_TOOLS.has(r.tool ?? "");
}

export function isInput(r: RequestEntry): boolean {
  return r.tool !== undefined && INPUT_TOOLS.has(r.tool);
}

/** A successful, non-empty observation. */
export function isFreshObservation(r: RequestEntry): boolean {
  if (r.tool === undefined || !OBSERVATION_TOOLS.has(r.tool) || !isAnswered(r)) return false;
  return r.result?.empty !== true && r.fault?.kind !== "empty";
}

export function isRebuild(r: RequestEntry): boolean {
  return r.tool === "start_session" && isAnswered(r);
}

/** The window an input is aimed at, from `window_id` or `target.window_id`. */
export function targetWindow(r: RequestEntry): number | undefined {
  const args = r.args as Record<string, unknown> | undefined;
  if (!args || typeof args !== "object") return undefined;
  if (typeof args.window_id === "number") return args.window_id;
  const target = args.target as Record<string, unknown> | undefined;
  if (target && typeof target === "object" && typeof target.window_id === "number") return target.window_id;
  return undefined;
}

export function faultLabel(r: RequestEntry): string | undefined {
  if (!r.fault) return r.result?.refusal_code ? `refusal ${r.result.refusal_code}` : undefined;
  const code = typeof r.fault.params?.code === "string" ? ` ${r.fault.params.code}` : "";
  return `${r.fault.kind}${code} (rule ${r.fault.rule})`;
}

/** `#3 click {"x":1}`: how a request is quoted in evidence. */
export function quote(r: RequestEntry): string {
  const args = r.args === undefined ? "" : ` ${truncate(JSON.stringify(r.args), 80)}`;
  return `#${r.n} ${r.tool ?? r.method}${args}`;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
