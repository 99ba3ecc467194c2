import type { Clock } from "#src/driver/port.js";
import { isTransportFailure } from "#src/driver/port.js";
import { hasFlag, harnessActionFor, isReadOnlyTool } from "#src/driver/catalogue.js";
import { REFUSAL } from "#src/driver/refusals.js";
import type { HarnessAction, StepResult } from "#src/schema/harness-step.js";
import type { CallPolicy } from "./call-policy.js";
import { layoutDifference, layoutOf } from "./frame-lease.js";
import { formatObservation, type ObservationBudget } from "./observation.js";
import { refusalCode } from "./reply-fields.js";
import { aimedWindow, clickTarget, inputGuards } from "./session-guards.js";
import type { HarnessParts } from "./session-parts.js";
import type { SessionStore } from "./session-store.js";
import { checkStaleClick } from "./stale-click.js";
import { blocked, fromVerdict, type StepRecorder } from "./step-recorder.js";
import type { WindowList } from "./window-list.js";
import { parseWindowState, type WindowState } from "./window-state.js";

/** Runs one parsed action: reads through the call policy, guards before any input, results as decisions. */
export interface SessionActions {
  run(rec: StepRecorder, action: HarnessAction): Promise<StepResult>;
}

export function createSessionActions(options: {
  store: SessionStore;
  policy: CallPolicy;
  parts: HarnessParts;
  clock: Clock;
  budget?: ObservationBudget;
}): SessionActions {
  const { store, policy, parts, clock, budget } = options;

  async function observe(
    rec: StepRecorder,
    target: { pid?: number | undefined; window_id?: number | undefined; query?: string | undefined },
    withList: boolean,
  ): Promise<StepResult> {
    let list: WindowList | undefined;
    if (withList) {
      list = parts.windowList.assess(await policy.read(rec, "list_windows", {}, "observe"));
      store.noteList(list);
      await store.settlePendingClick({ list });
    }
    let clickChanged: boolean | undefined;
    let window: WindowState | undefined;
    if (target.pid !== undefined && target.window_id !== undefined) {
      const args: Record<string, unknown> = { pid: target.pid, window_id: target.window_id };
      if (target.query !== undefined) args.query = target.query;
      window = parseWindowState(await policy.read(rec, "get_window_state", args, "observe"));
      clickChanged = await store.noteWindow(window);
    }
    const base = list ?? store.lastList;
    const frame = store.newFrame(layoutOf(base?.windows ?? []), base?.status === "complete", window);
    const text = formatObservation({ ...(list ? { windows: list } : {}), ...(window ? { window } : {}) }, budget);
    const listRead = list !== undefined && list.status !== "failed";
    const windowRead = window !== undefined && !window.failed;
    // Fresh state after an unknown outcome needs something seen: an empty read proves nothing.
    if (list?.status === "complete" || (windowRead && (window?.elements.length ?? 0) > 0)) store.freshStateSeen();
    const observation = { frame: frame.id, text: `${frame.id}\n${text.text}`, partial: text.partial };
    if (!listRead && !windowRead) {
      return rec.result({ decision: "escalate", note: "The observation failed: nothing could be read. Do not act on old state; try again.", observation });
    }
    if (text.partial) {
      return rec.result({
        decision: "verify_fresh_state",
        note: "The observation is partial: a missing window or element is not proof that it is gone.",
        observation,
      });
    }
    if (clickChanged === false) {
      // the click was answered as delivered, yet the window reads exactly as before it (docs/faults.md, no_effect)
      return rec.result({
        decision: "escalate",
        note: `Observed (${frame.id}): the last click changed nothing visible, though the driver answered it as delivered. Do not build on it: try another route (foreground delivery, the desktop target, a key), or report the step as not done.`,
        observation,
      });
    }
    return rec.result({ decision: "done", note: `Observed (${frame.id}).`, observation });
  }

  async function sendInput(
    rec: StepRecorder,
    tool: string,
    args: Record<string, unknown>,
    extra?: { clickTarget?: string; window?: number | undefined },
  ): Promise<StepResult> {
    const { reply, revivedWithoutReplay } = await policy.mutate(rec, tool, args);
    const verdict = parts.classify(reply, { tool, readOnly: false });
    if (extra?.clickTarget !== undefined && !isTransportFailure(reply) && reply.isError !== true) {
      store.noteClick({ target: extra.clickTarget, confirmed: verdict.outcome === "confirmed", window: extra.window });
    }
    if (revivedWithoutReplay) {
      return rec.result({
        decision: "escalate",
        verdict,
        note: `The session had ended; it was revived, and ${tool} was not sent again. Read fresh state, then send it again if it is still needed.`,
      });
    }
    if (refusalCode(reply) === REFUSAL.stale_element_token) return refreshAfterStaleToken(rec, verdict, args);
    return fromVerdict(rec, verdict);
  }

  async function refreshAfterStaleToken(rec: StepRecorder, verdict: ReturnType<HarnessParts["classify"]>, args: Record<string, unknown>): Promise<StepResult> {
    const token = typeof args.element_token === "string" ? args.element_token : "";
    if (token) store.retireSnapshot(token);
    const snap = store.snapshotOf(token);
    const pid = typeof args.pid === "number" ? args.pid : snap?.pid;
    const windowId = typeof args.window_id === "number" ? args.window_id : snap?.window_id;
    if (pid === undefined || windowId === undefined) {
      store.requireFreshState("an element token was stale");
      return rec.result({ decision: "escalate", verdict, note: `${verdict.note} The window is not known, so it was not read again: observe it first.` });
    }
    const state = parseWindowState(await policy.read(rec, "get_window_state", { pid, window_id: windowId }, "refresh"));
    await store.noteWindow(state);
    if (state.failed) {
      store.requireFreshState("an element token was stale and the refresh failed");
      return rec.result({ decision: "escalate", verdict, note: `${verdict.note} Reading the window again failed: observe it before acting.` });
    }
    const lastList = store.lastList;
    const frame = store.newFrame(layoutOf(lastList?.windows ?? []), lastList?.status === "complete", state);
    const text = formatObservation({ window: state }, budget);
    return rec.result({
      decision: "escalate",
      verdict,
      note: `${verdict.note} The window was read again (${frame.id}); choose the target from it. The click was not retargeted.`,
      observation: { frame: frame.id, text: `${frame.id}\n${text.text}`, partial: text.partial },
    });
  }

  async function click(rec: StepRecorder, action: Extract<HarnessAction, { action: "click" }>): Promise<StepResult> {
    const guarded = inputGuards(rec, store, action);
    if (guarded) return guarded;
    const target = clickTarget(store, action);
    const stale = checkStaleClick(store.staleClick, target);
    if (!stale.ok) return blocked(rec, "stale_click", stale.note);
    const args: Record<string, unknown> = {};
    for (const key of ["pid", "window_id", "element_token", "x", "y", "button", "delivery_mode"] as const) {
      if (action[key] !== undefined) args[key] = action[key];
    }
    if (action.element_token === undefined) {
      const frameId = action.frame === "latest" ? store.latestFrame : action.frame;
      const frame = frameId ? store.frame(frameId) : undefined;
      if (!frame) {
        return blocked(
          rec,
          "stale_frame",
          action.frame
            ? `No observation ${action.frame} is known. Observe, then aim from it; no input was sent.`
            : "A coordinate click must name the observation (frame) it was aimed from. No input was sent.",
        );
      }
      if (frame.stale) {
        return blocked(
          rec,
          "stale_frame",
          `Observation ${frame.id} is stale (${frame.stale}). No input was sent; aim again from ${store.latestFrame ?? "a fresh observation"}.`,
        );
      }
      const live = parts.windowList.assess(await policy.read(rec, "list_windows", {}, "lease_check"));
      store.noteList(live);
      const lease = parts.frameLease({ aimed: frame.layout, aimedComplete: frame.complete, live });
      if (!lease.ok) {
        if (live.status === "complete") frame.stale = layoutDifference(frame.layout, layoutOf(live.windows)) ?? "the layout changed";
        const fresh = store.newFrame(layoutOf(live.windows), live.status === "complete");
        const text = formatObservation({ windows: live }, budget);
        return blocked(rec, "stale_frame", lease.note, { frame: fresh.id, text: `${fresh.id}\n${text.text}`, partial: text.partial });
      }
    }
    return sendInput(rec, "click", args, { clickTarget: target, window: aimedWindow(store, action) });
  }

  function pick(action: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const k of keys) if (action[k] !== undefined) out[k] = action[k];
    return out;
  }

  /**
   * Where a generic call aims: its own pid, window_id and element_token, else those of its `target`
   * object (`{kind: "window", pid, window_id}` of `scroll`, `drag`, `move_cursor`… in every release; `type_secret(handle, field, target)` after 0.28.2), so the guards see it.
   */
  function aimOf(args: Record<string, unknown>): { pid?: number; window_id?: number; element_token?: string } {
    const nested = args.target !== null && typeof args.target === "object" ? (args.target as Record<string, unknown>) : {};
    // taken as given (as the call's own fields always were): a malformed aim is the guards' to refuse
    return {
      pid: (args.pid ?? nested.pid) as number,
      window_id: (args.window_id ?? nested.window_id) as number,
      element_token: (args.element_token ?? nested.element_token) as string,
    };
  }

  async function genericCall(rec: StepRecorder, action: Extract<HarnessAction, { action: "call" }>): Promise<StepResult> {
    const { tool, args } = action;
    const own = harnessActionFor(tool);
    if (own) return blocked(rec, "bad_action", `Use the ${own} action, not call, so its guards apply. Nothing was sent.`);
    if (hasFlag(tool, "pointer") && ("x" in args || "y" in args)) {
      return blocked(rec, "stale_frame", `${tool} by coordinates cannot carry a frame lease; use click with a frame, or an element_token. Nothing was sent.`);
    }
    const readOnly = isReadOnlyTool(tool, await policy.listTools());
    if (readOnly) {
      const reply = await policy.read(rec, tool, args, "action");
      return fromVerdict(rec, parts.classify(reply, { tool, readOnly: true }));
    }
    if (typeof args.text === "string" || typeof args.value === "string") {
      const g = parts.typedText(String(args.text ?? args.value));
      if (!g.ok) return blocked(rec, "typed_text", g.note);
    }
    const guarded = inputGuards(rec, store, aimOf(args));
    if (guarded) return guarded;
    return sendInput(rec, tool, args);
  }

  async function run(rec: StepRecorder, action: HarnessAction): Promise<StepResult> {
    switch (action.action) {
      case "observe":
        return observe(rec, action, true);
      case "list_windows":
        return observe(rec, {}, true);
      case "get_window_state":
        return observe(rec, action, false);
      case "click":
        return click(rec, action);
      case "type_text": {
        const g = parts.typedText(action.text);
        if (!g.ok) return blocked(rec, "typed_text", g.note);
        const guarded = inputGuards(rec, store, action);
        if (guarded) return guarded;
        return sendInput(rec, "type_text", pick(action, ["pid", "window_id", "element_token", "text", "delivery_mode"]));
      }
      case "press_key": {
        const g = parts.keyCombo(action.key);
        if (!g.ok) return blocked(rec, "key_combo", g.note);
        const guarded = inputGuards(rec, store, action);
        if (guarded) return guarded;
        return sendInput(rec, "press_key", pick(action, ["pid", "window_id", "key", "delivery_mode"]));
      }
      case "hotkey": {
        const g = parts.keyCombo(action.keys);
        if (!g.ok) return blocked(rec, "key_combo", g.note);
        const guarded = inputGuards(rec, store, action);
        if (guarded) return guarded;
        const keys = typeof action.keys === "string" ? action.keys.split(/\s*\+\s*/).filter(Boolean) : action.keys;
        return sendInput(rec, "hotkey", { ...pick(action, ["pid", "window_id", "delivery_mode"]), keys });
      }
      case "set_window_frame": {
        const guarded = inputGuards(rec, store, action);
        if (guarded) return guarded;
        return sendInput(rec, "set_window_frame", pick(action, ["pid", "window_id", "x", "y", "width", "height"]));
      }
      case "wait":
        await clock.sleep(action.ms);
        return rec.result({ decision: "done", note: `Waited ${action.ms} ms.` });
      case "call":
        return genericCall(rec, action);
    }
  }

  return { run };
}
