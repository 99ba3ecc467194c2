import { PASS, type GuardResult } from "./guard-result.js";

/** A window an input is meant for, or the one the harness last observed. */
export interface InputTarget {
  app?: string | undefined;
  pid?: number | undefined;
  window_id?: number | undefined;
}

function fold(s: string | undefined): string {
  return (s ?? "").trim().toLowerCase();
}

function appsMatch(requested: string, current: string): boolean {
  if (requested === current) return true;
  const [short, long] = requested.length <= current.length ? [requested, current] : [current, requested];
  return short.length >= 3 && long.includes(short);
}

/**
 * Input always lands on the current target. Refuse when the requested target is a different
 * window or app, or when there is no current target at all (nothing observed yet).
 */
export function checkInputTarget(requested: InputTarget, current: InputTarget | undefined): GuardResult {
  const wants = requested.window_id !== undefined || requested.pid !== undefined || fold(requested.app) !== "";
  if (!wants) return PASS;
  if (!current || (current.window_id === undefined && current.pid === undefined && fold(current.app) === "")) {
    return { ok: false, code: "input_target_unknown", note: "No current target: observe the window first, then act on it." };
  }
  const mismatch =
    (requested.window_id !== undefined && current.window_id !== undefined && requested.window_id !== current.window_id) ||
    (requested.pid !== undefined && current.pid !== undefined && requested.pid !== current.pid) ||
    (fold(requested.app) !== "" && fold(current.app) !== "" && !appsMatch(fold(requested.app), fold(current.app)));
  if (!mismatch) return PASS;
  const describe = (t: InputTarget) =>
    [t.app && `'${t.app}'`, t.pid !== undefined && `pid ${t.pid}`, t.window_id !== undefined && `window ${t.window_id}`].filter(Boolean).join(" ");
  return {
    ok: false,
    code: "input_target_mismatch",
    note: `The input would go to the current target ${describe(current)}, not ${describe(requested)}. Observe the intended window first, then retry.`,
  };
}
