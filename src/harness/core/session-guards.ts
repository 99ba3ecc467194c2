import type { HarnessAction, StepResult } from "#src/schema/harness-step.js";
import { checkInputTarget } from "./input-target.js";
import type { SessionStore } from "./session-store.js";
import { blocked, type StepRecorder } from "./step-recorder.js";

type Aimed = { pid?: number | undefined; window_id?: number | undefined; element_token?: string | undefined };

/** The window an input is aimed at: named, or the one its element token was read from. */
export function aimedWindow(store: SessionStore, action: Aimed): number | undefined {
  if (action.window_id !== undefined) return action.window_id;
  const snap = action.element_token ? store.snapshotOf(action.element_token) : undefined;
  return snap?.window_id;
}

/** Guards every input shares: fresh state after an unknown outcome, observed window, token's window. */
export function inputGuards(rec: StepRecorder, store: SessionStore, action: Aimed): StepResult | undefined {
  if (store.freshStateRequired) {
    return blocked(rec, "fresh_state_required", `Take fresh state first: ${store.freshStateRequired}, and the action may have happened. No input was sent.`);
  }
  const win = aimedWindow(store, action);
  const lastList = store.lastList;
  if (win !== undefined && !store.isObserved(win)) {
    const since = lastList && lastList.status !== "complete" ? " since the window list came back incomplete" : lastList ? " in the latest window list" : " yet";
    return blocked(rec, "window_unobserved", `Window ${win} has not been observed${since}. Observe it first; no input was sent.`);
  }
  if (action.element_token) {
    const refusedToken = store.retiredBecause(action.element_token);
    if (refusedToken !== undefined) {
      return blocked(
        rec,
        "refused_unchanged",
        `The driver refused ${refusedToken} as stale (stale_element_token): every token of that read is refused again. Aim from a fresh read of the window. Nothing was sent.`,
      );
    }
    const snap = store.snapshotOf(action.element_token);
    if (snap) {
      const g = checkInputTarget({ pid: action.pid, window_id: action.window_id }, { pid: snap.pid, window_id: snap.window_id });
      if (!g.ok) return blocked(rec, "input_target", g.note);
    }
  }
  return undefined;
}

/** What the stale-click guard counts clicks on: the element as it was read, else a coarse point in the window. */
export function clickTarget(store: SessionStore, action: Extract<HarnessAction, { action: "click" }>): string {
  if (action.element_token) {
    const idx = action.element_token.split(":")[1];
    const snap = store.snapshotOf(action.element_token);
    const el = snap?.elements.find((e) => e.element_index === Number(idx));
    return el ? `w${snap!.window_id}|${el.role ?? ""}|${el.label ?? ""}|${el.element_index}` : `t${action.element_token}`;
  }
  return `w${action.window_id ?? "desktop"}|${Math.round((action.x ?? 0) / 8)},${Math.round((action.y ?? 0) / 8)}`;
}
