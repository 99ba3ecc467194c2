import { canonicalJson } from "#src/wire/json/canonical.js";

/**
 * Tool-result refusals in the envelope shapes cua-driver 0.21 uses (docs/reference/cua-driver-contract.md §3.2):
 * element/daemon style `{refusal:{code,message},status:"refused"}`, target style
 * `{candidates,code,effect:"refused",pid}`, and flat `{code,…}`. Always `isError: true`.
 */

const ELEMENT_STYLE: ReadonlySet<string> = new Set([
  "stale_element_token",
  "snapshot_id_required",
  "element_index_required",
  "invalid_snapshot_id",
  "conflicting_element_target",
  "generation_mismatch",
  "invalid_element_token",
  "session_ended",
  "facility_unavailable",
  "input_busy",
  "authorization_suspended",
  "authorization_revoked",
]);

const TARGET_STYLE: ReadonlySet<string> = new Set(["window_target_not_found", "ambiguous_window_target", "window_target_resolution_failed"]);

/** Codes whose envelope lists the pid's candidate windows (docs/reference/cua-driver-contract.md §3.2). */
const LISTS_CANDIDATES: ReadonlySet<string> = new Set(["window_target_not_found", "ambiguous_window_target"]);

/**
 * One entry of a target-style refusal's `candidates`: window_id, title, app name and on-screen
 * state (docs/reference/cua-driver-contract.md §3.2), named as `list_windows` names them (docs/faults.md).
 */
export interface WindowCandidate {
  app_name?: unknown;
  is_on_screen?: unknown;
  title?: unknown;
  window_id?: unknown;
}

export function listsCandidates(code: string): boolean {
  return LISTS_CANDIDATES.has(code);
}

/** Texts the driver itself uses, where they are known (captured or read in the source). */
const MESSAGES: Record<string, (tool: string, args: Record<string, unknown>) => string> = {
  stale_element_token: () => "element_token is stale; call get_window_state again to refresh",
  session_ended: () => "this session has ended; call start_session explicitly to reuse its label",
  snapshot_id_required: (tool) => `${tool}: bare element_index is not accepted; pass element_token, or snapshot_id together with element_index`,
  window_target_not_found: (_t, a) => `No eligible top-level windows found for pid ${pidOf(a)}.`,
  ambiguous_window_target: (_t, a) => `pid ${pidOf(a)} has more than one eligible top-level window; pass window_id.`,
  invalid_action_target: () => "target cannot be combined with legacy scope, pid, or window_id fields",
  background_unavailable: () =>
    'Background delivery is not available: the requested target has no focus-free input backend; the remaining XTest/X11 route can only deliver to the globally focused widget. Retry this action with delivery_mode:"foreground"; Cua Driver will activate the target for the action and restore the previous foreground afterward.',
};

export function pidOf(args: Record<string, unknown>): number {
  const target = args.target as Record<string, unknown> | undefined;
  const pid = typeof args.pid === "number" ? args.pid : typeof target?.pid === "number" ? target.pid : 0;
  return pid;
}

/**
 * The raw result JSON (`{"content":…,"isError":true,"structuredContent":…}`) of a refusal.
 * `candidates`: the requested pid's windows as last known (target-style codes only; default none).
 */
export function refusalResult(options: {
  code: string;
  tool: string;
  args: Record<string, unknown>;
  message?: string;
  candidates?: readonly WindowCandidate[];
}): string {
  const { code, tool, args } = options;
  const message = options.message ?? MESSAGES[code]?.(tool, args) ?? `${tool} refused: ${code}`;
  let structured: Record<string, unknown>;
  if (ELEMENT_STYLE.has(code)) structured = { refusal: { code, message }, status: "refused" };
  else if (TARGET_STYLE.has(code)) {
    const candidates = LISTS_CANDIDATES.has(code) ? (options.candidates ?? []) : [];
    structured = { candidates, code, effect: "refused", pid: pidOf(args) };
  } else if (code === "background_unavailable") {
    structured = {
      code,
      detail: "the requested target has no focus-free input backend; the remaining XTest/X11 route can only deliver to the globally focused widget",
      escalation: {
        reason: 'background input is unavailable on this surface; retry this action with delivery_mode:"foreground".',
        recommended: "foreground",
      },
      suggestion: 'Retry this action with delivery_mode:"foreground".',
    };
  } else structured = { code };
  return canonicalJson({ content: [{ text: message, type: "text" }], isError: true, structuredContent: structured });
}
