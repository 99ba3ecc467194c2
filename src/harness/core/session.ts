import type { Clock, Driver, Reply, ToolInfo } from "../../driver/port.js";
import { isTransportFailure } from "../../driver/port.js";
import { hasFlag, harnessActionFor, isReadOnlyTool } from "../../driver/catalogue.js";
import { HarnessActionSchema, HARNESS_ACTION_NAMES, type HarnessAction, type StepResult } from "../../schema/harness-step.js";
import { checkBatchSize, checkWaitBudget } from "./batch-budget.js";
import { canonicalJson } from "../../wire/json/canonical.js";
import { layoutDifference, layoutOf, type Layout } from "./frame-lease.js";
import { checkInputTarget } from "./input-target.js";
import { checkLoopGuard, initialLoopGuardState, recordLoopStep, resumeLoopGuard, type LoopGuardState } from "./loop-guard.js";
import { nearestAction } from "./nearest-action.js";
import { formatObservation, type ObservationBudget } from "./observation.js";
import { isSessionEnded, refusalCode } from "./reply-fields.js";
import { defaultHarnessParts, replySucceeded, type HarnessParts } from "./session-parts.js";
import { StepRecorder, blocked, fromVerdict, isFailedStep } from "./step-recorder.js";
import { checkStaleClick, initialStaleClickState, recordClick, recordObservation, type StaleClickState } from "./stale-click.js";
import { windowChanged } from "./visible-change.js";
import type { WindowList } from "./window-list.js";
import { parseWindowState, type WindowState } from "./window-state.js";

export interface HarnessSessionOptions {
  driver: Driver;
  clock: Clock;
  /** Session label declared with start_session at startup and on every rebuild. */
  label?: string;
  /** A driver contract; checked against the driver's tools at startup when `parts.contractCheck` is given. */
  contract?: unknown;
  parts?: Partial<HarnessParts>;
  /** Per-call deadline handed to the driver (default 30 s). */
  timeoutMs?: number;
  budget?: ObservationBudget;
}

/** A read the harness made, kept so coordinates can be checked against it later. */
export interface Frame {
  id: string;
  layout: Layout;
  /** The layout came from a trusted (complete) window list. */
  complete: boolean;
  /** Set once a lease check found the live layout different: the frame never vouches again. */
  stale?: string;
  window?: WindowState;
}

export interface HarnessSessionState {
  started: boolean;
  suspect: boolean;
  rebuilds: number;
  revivals: number;
  /** Why input is refused until the next fresh observation, if it is. */
  freshStateRequired?: string;
  /** Why the session cannot be used at all (contract gaps, failed rebuild). */
  unavailable?: string;
  loop: LoopGuardState;
  staleClick: StaleClickState;
  latestFrame?: string;
  frames: number;
  observedWindows: number[];
}

export interface BatchResult {
  decision: StepResult["decision"];
  steps: StepResult[];
  /** Index of the step the batch stopped at, when one failed. */
  stoppedAt?: number;
  note: string;
}

export interface HarnessSession {
  step(action: HarnessAction): Promise<StepResult>;
  batch(actions: readonly HarnessAction[]): Promise<BatchResult>;
  /** Clears a loop-guard pause. */
  resume(): void;
  readonly state: HarnessSessionState;
}

export const DEFAULT_LABEL = "cua-contract-harness";

/**
 * The reference harness: executes one action at a time against a Driver and answers with a
 * decision. Fail-closed: an unknown outcome is never re-sent, the session is rebuilt before the
 * next call, and guards refuse input before anything is sent.
 */
export function createHarnessSession(options: HarnessSessionOptions): HarnessSession {
  const parts: HarnessParts = { ...defaultHarnessParts, ...options.parts };
  const { driver, clock } = options;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const label = options.label ?? DEFAULT_LABEL;
  let declared = options.label !== undefined;
  let started = false;
  let suspect = false;
  let rebuilds = 0;
  let revivals = 0;
  let freshStateRequired: string | undefined;
  let unavailable: string | undefined;
  let tools: ToolInfo[] | undefined;
  let loop = initialLoopGuardState();
  let staleClick = initialStaleClickState();
  let pendingClick: { window?: number; before?: WindowState; layout?: Layout } | undefined;
  let observed = new Set<number>();
  let lastList: WindowList | undefined;
  let frameCount = 0;
  let latestFrame: string | undefined;
  const frames = new Map<string, Frame>();
  const snapshots = new Map<string, WindowState>();
  const windowStates = new Map<number, WindowState>();

  async function call(rec: StepRecorder, tool: string, args: Record<string, unknown>, purpose: Parameters<StepRecorder["record"]>[3]): Promise<Reply> {
    const full = declared && !("session" in args) ? { ...args, session: label } : args;
    let reply: Reply;
    try {
      reply = await driver.call(tool, full, { timeoutMs });
    } catch (error) {
      reply = { kind: "transport_error", tool, message: error instanceof Error ? error.message : String(error) };
    }
    rec.record(tool, full, reply, purpose);
    return reply;
  }

  async function listTools(): Promise<ToolInfo[]> {
    if (!tools) {
      try {
        tools = await driver.listTools();
      } catch {
        tools = [];
      }
    }
    return tools;
  }

  async function rebuild(rec: StepRecorder): Promise<boolean> {
    rebuilds += 1;
    tools = undefined;
    const ok = await parts.rebuild.rebuild({ label, call: (tool, args) => call(rec, tool, args, "rebuild") });
    if (ok) {
      suspect = false;
      declared = true;
    }
    return ok;
  }

  /** Startup, then a rebuild if the session is suspect. Returns a blocked result when it cannot go on. */
  async function ready(rec: StepRecorder): Promise<StepResult | undefined> {
    if (!started) {
      started = true;
      if (options.contract !== undefined && parts.contractCheck) {
        const check = await parts.contractCheck({ contract: options.contract, tools: await listTools() });
        if (!check.ok) unavailable = `the driver does not meet the contract: ${check.gaps.join("; ")}`;
      }
      if (!unavailable && options.label !== undefined) await lifecycle(rec, "startup");
    }
    if (unavailable) return blocked(rec, "session_unavailable", `The session cannot be used: ${unavailable}.`);
    if (suspect && !(await rebuild(rec))) {
      return blocked(rec, "session_unavailable", "The session is suspect and could not be rebuilt (start_session failed). No input was sent; try again later.");
    }
    return undefined;
  }

  /** A lifecycle call lost in transport leaves the session in an unknown state: suspect. */
  async function lifecycle(rec: StepRecorder, purpose: "revive" | "startup"): Promise<boolean> {
    const reply = await call(rec, "start_session", { session: label }, purpose);
    if (isTransportFailure(reply)) suspect = true;
    return replySucceeded(reply);
  }

  async function revive(rec: StepRecorder): Promise<boolean> {
    revivals += 1;
    return lifecycle(rec, "revive");
  }

  async function read(rec: StepRecorder, tool: string, args: Record<string, unknown>, purpose: "observe" | "lease_check" | "refresh" | "action"): Promise<Reply> {
    let reply = await call(rec, tool, args, purpose);
    if (isTransportFailure(reply)) {
      const d = parts.unknownOutcome.afterReadFailure(reply, 0);
      if (d.suspect) suspect = true;
      if (d.retry && (!suspect || (await rebuild(rec)))) reply = await call(rec, tool, args, "retry");
      if (isTransportFailure(reply)) suspect = suspect || d.suspect;
    } else if (!hasFlag(tool, "session-lifecycle") && isSessionEnded(reply) && (await revive(rec)) && parts.unknownOutcome.replayAfterRevival({ tool, readOnly: true })) {
      reply = await call(rec, tool, args, "retry");
    }
    return reply;
  }

  async function mutate(rec: StepRecorder, tool: string, args: Record<string, unknown>): Promise<{ reply: Reply; revivedWithoutReplay: boolean }> {
    let reply = await call(rec, tool, args, "action");
    if (isTransportFailure(reply)) {
      const d = parts.unknownOutcome.afterMutationFailure(reply);
      if (d.suspect) suspect = true;
      if (d.requireObservation) freshStateRequired = `the outcome of ${tool} is unknown`;
      if (d.resend) {
        const again = await call(rec, tool, args, "retry");
        if (!isTransportFailure(again)) reply = again;
      }
      return { reply, revivedWithoutReplay: false };
    }
    if (!hasFlag(tool, "session-lifecycle") && isSessionEnded(reply) && (await revive(rec))) {
      if (!parts.unknownOutcome.replayAfterRevival({ tool, readOnly: false })) return { reply, revivedWithoutReplay: true };
      reply = await call(rec, tool, args, "retry");
    }
    return { reply, revivedWithoutReplay: false };
  }

  function newFrame(layout: Layout, complete: boolean, window?: WindowState): Frame {
    frameCount += 1;
    const frame: Frame = { id: `obs-${frameCount}`, layout, complete };
    if (window) frame.window = window;
    frames.set(frame.id, frame);
    latestFrame = frame.id;
    return frame;
  }

  async function settlePendingClick(change: { window?: WindowState; list?: WindowList }): Promise<void> {
    if (!pendingClick) return;
    let changed: boolean | undefined;
    if (change.window && pendingClick.before && change.window.window_id === pendingClick.window) {
      changed = await windowChanged(pendingClick.before, change.window, parts.compareFrames);
    } else if (change.list?.status === "complete" && pendingClick.layout && layoutDifference(pendingClick.layout, layoutOf(change.list.windows))) {
      changed = true;
    }
    if (changed === undefined) return;
    staleClick = recordObservation(staleClick, changed);
    pendingClick = undefined;
  }

  function noteList(list: WindowList): void {
    lastList = list;
    observed = parts.windowList.windowsAfter(list, observed);
  }

  async function noteWindow(state: WindowState): Promise<void> {
    if (state.failed || state.window_id === undefined) return;
    observed.add(state.window_id);
    windowStates.set(state.window_id, state);
    if (state.snapshot_id) snapshots.set(state.snapshot_id, state);
    await settlePendingClick({ window: state });
  }

  async function observe(rec: StepRecorder, target: { pid?: number; window_id?: number; query?: string }, withList: boolean): Promise<StepResult> {
    let list: WindowList | undefined;
    if (withList) {
      list = parts.windowList.assess(await read(rec, "list_windows", {}, "observe"));
      noteList(list);
      await settlePendingClick({ list });
    }
    let window: WindowState | undefined;
    if (target.pid !== undefined && target.window_id !== undefined) {
      const args: Record<string, unknown> = { pid: target.pid, window_id: target.window_id };
      if (target.query !== undefined) args.query = target.query;
      window = parseWindowState(await read(rec, "get_window_state", args, "observe"));
      await noteWindow(window);
    }
    const base = list ?? lastList;
    const frame = newFrame(layoutOf(base?.windows ?? []), base?.status === "complete", window);
    const text = formatObservation({ ...(list ? { windows: list } : {}), ...(window ? { window } : {}) }, options.budget);
    const listRead = list !== undefined && list.status !== "failed";
    const windowRead = window !== undefined && !window.failed;
    // Fresh state after an unknown outcome needs something seen: an empty read proves nothing.
    if (list?.status === "complete" || (windowRead && (window?.elements.length ?? 0) > 0)) freshStateRequired = undefined;
    const observation = { frame: frame.id, text: `${frame.id}\n${text.text}`, partial: text.partial };
    if (!listRead && !windowRead) {
      return rec.result({ decision: "escalate", note: "The observation failed: nothing could be read. Do not act on old state; try again.", observation });
    }
    if (text.partial) {
      return rec.result({ decision: "verify_fresh_state", note: "The observation is partial: a missing window or element is not proof that it is gone.", observation });
    }
    return rec.result({ decision: "done", note: `Observed (${frame.id}).`, observation });
  }

  function aimedWindow(action: { window_id?: number; element_token?: string }): number | undefined {
    if (action.window_id !== undefined) return action.window_id;
    const snap = action.element_token ? snapshots.get(action.element_token.split(":")[0]!) : undefined;
    return snap?.window_id;
  }

  /** Guards every input shares: fresh state after an unknown outcome, observed window, token's window. */
  function inputGuards(rec: StepRecorder, action: { pid?: number; window_id?: number; element_token?: string }): StepResult | undefined {
    if (freshStateRequired) {
      return blocked(rec, "fresh_state_required", `Take fresh state first: ${freshStateRequired}, and the action may have happened. No input was sent.`);
    }
    const win = aimedWindow(action);
    if (win !== undefined && !observed.has(win)) {
      const since = lastList && lastList.status !== "complete" ? " since the window list came back incomplete" : lastList ? " in the latest window list" : " yet";
      return blocked(rec, "window_unobserved", `Window ${win} has not been observed${since}. Observe it first; no input was sent.`);
    }
    if (action.element_token) {
      const snap = snapshots.get(action.element_token.split(":")[0]!);
      if (snap) {
        const g = checkInputTarget({ pid: action.pid, window_id: action.window_id }, { pid: snap.pid, window_id: snap.window_id });
        if (!g.ok) return blocked(rec, "input_target", g.note);
      }
    }
    return undefined;
  }

  function clickTarget(action: Extract<HarnessAction, { action: "click" }>): string {
    if (action.element_token) {
      const [snapId, idx] = action.element_token.split(":");
      const snap = snapshots.get(snapId!);
      const el = snap?.elements.find((e) => e.element_index === Number(idx));
      return el ? `w${snap!.window_id}|${el.role ?? ""}|${el.label ?? ""}|${el.element_index}` : `t${action.element_token}`;
    }
    return `w${action.window_id ?? "desktop"}|${Math.round((action.x ?? 0) / 8)},${Math.round((action.y ?? 0) / 8)}`;
  }

  async function sendInput(rec: StepRecorder, tool: string, args: Record<string, unknown>, extra?: { clickTarget?: string; window?: number }): Promise<StepResult> {
    const { reply, revivedWithoutReplay } = await mutate(rec, tool, args);
    const verdict = parts.classify(reply, { tool, readOnly: false });
    if (extra?.clickTarget !== undefined && !isTransportFailure(reply) && reply.isError !== true) {
      staleClick = recordClick(staleClick, extra.clickTarget, verdict.outcome === "confirmed");
      pendingClick = verdict.outcome === "confirmed" ? undefined : { window: extra.window, before: extra.window !== undefined ? windowStates.get(extra.window) : undefined, layout: lastList?.status === "complete" ? layoutOf(lastList.windows) : undefined };
    }
    if (revivedWithoutReplay) {
      return rec.result({ decision: "escalate", verdict, note: `The session had ended; it was revived, and ${tool} was not sent again. Read fresh state, then send it again if it is still needed.` });
    }
    if (refusalCode(reply) === "stale_element_token") return refreshAfterStaleToken(rec, verdict, args);
    return fromVerdict(rec, verdict);
  }

  async function refreshAfterStaleToken(rec: StepRecorder, verdict: ReturnType<HarnessParts["classify"]>, args: Record<string, unknown>): Promise<StepResult> {
    const token = typeof args.element_token === "string" ? args.element_token : "";
    const snap = snapshots.get(token.split(":")[0]!);
    const pid = typeof args.pid === "number" ? args.pid : snap?.pid;
    const windowId = typeof args.window_id === "number" ? args.window_id : snap?.window_id;
    if (pid === undefined || windowId === undefined) {
      freshStateRequired = "an element token was stale";
      return rec.result({ decision: "escalate", verdict, note: `${verdict.note} The window is not known, so it was not read again: observe it first.` });
    }
    const state = parseWindowState(await read(rec, "get_window_state", { pid, window_id: windowId }, "refresh"));
    await noteWindow(state);
    if (state.failed) {
      freshStateRequired = "an element token was stale and the refresh failed";
      return rec.result({ decision: "escalate", verdict, note: `${verdict.note} Reading the window again failed: observe it before acting.` });
    }
    const frame = newFrame(layoutOf(lastList?.windows ?? []), lastList?.status === "complete", state);
    const text = formatObservation({ window: state }, options.budget);
    return rec.result({
      decision: "escalate",
      verdict,
      note: `${verdict.note} The window was read again (${frame.id}); choose the target from it. The click was not retargeted.`,
      observation: { frame: frame.id, text: `${frame.id}\n${text.text}`, partial: text.partial },
    });
  }

  async function click(rec: StepRecorder, action: Extract<HarnessAction, { action: "click" }>): Promise<StepResult> {
    const guarded = inputGuards(rec, action);
    if (guarded) return guarded;
    const target = clickTarget(action);
    const stale = checkStaleClick(staleClick, target);
    if (!stale.ok) return blocked(rec, "stale_click", stale.note);
    const args: Record<string, unknown> = {};
    for (const key of ["pid", "window_id", "element_token", "x", "y", "button", "delivery_mode"] as const) {
      if (action[key] !== undefined) args[key] = action[key];
    }
    if (action.element_token === undefined) {
      const frameId = action.frame === "latest" ? latestFrame : action.frame;
      const frame = frameId ? frames.get(frameId) : undefined;
      if (!frame) {
        return blocked(rec, "stale_frame", action.frame ? `No observation ${action.frame} is known. Observe, then aim from it; no input was sent.` : "A coordinate click must name the observation (frame) it was aimed from. No input was sent.");
      }
      if (frame.stale) {
        return blocked(rec, "stale_frame", `Observation ${frame.id} is stale (${frame.stale}). No input was sent; aim again from ${latestFrame ?? "a fresh observation"}.`);
      }
      const live = parts.windowList.assess(await read(rec, "list_windows", {}, "lease_check"));
      noteList(live);
      const lease = parts.frameLease({ aimed: frame.layout, aimedComplete: frame.complete, live });
      if (!lease.ok) {
        if (live.status === "complete") frame.stale = layoutDifference(frame.layout, layoutOf(live.windows)) ?? "the layout changed";
        const fresh = newFrame(layoutOf(live.windows), live.status === "complete");
        const text = formatObservation({ windows: live }, options.budget);
        return blocked(rec, "stale_frame", lease.note, { frame: fresh.id, text: `${fresh.id}\n${text.text}`, partial: text.partial });
      }
    }
    return sendInput(rec, "click", args, { clickTarget: target, window: aimedWindow(action) });
  }

  function pick(action: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const k of keys) if (action[k] !== undefined) out[k] = action[k];
    return out;
  }

  async function genericCall(rec: StepRecorder, action: Extract<HarnessAction, { action: "call" }>): Promise<StepResult> {
    const { tool, args } = action;
    const own = harnessActionFor(tool);
    if (own) return blocked(rec, "bad_action", `Use the ${own} action, not call, so its guards apply. Nothing was sent.`);
    if (hasFlag(tool, "pointer") && ("x" in args || "y" in args)) {
      return blocked(rec, "stale_frame", `${tool} by coordinates cannot carry a frame lease; use click with a frame, or an element_token. Nothing was sent.`);
    }
    const readOnly = isReadOnlyTool(tool, await listTools());
    if (readOnly) {
      const reply = await read(rec, tool, args, "action");
      return fromVerdict(rec, parts.classify(reply, { tool, readOnly: true }));
    }
    if (typeof args.text === "string" || typeof args.value === "string") {
      const g = parts.typedText(String(args.text ?? args.value));
      if (!g.ok) return blocked(rec, "typed_text", g.note);
    }
    const guarded = inputGuards(rec, args as { pid?: number; window_id?: number; element_token?: string });
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
        const guarded = inputGuards(rec, action);
        if (guarded) return guarded;
        return sendInput(rec, "type_text", pick(action, ["pid", "window_id", "element_token", "text", "delivery_mode"]));
      }
      case "press_key": {
        const g = parts.keyCombo(action.key);
        if (!g.ok) return blocked(rec, "key_combo", g.note);
        const guarded = inputGuards(rec, action);
        if (guarded) return guarded;
        return sendInput(rec, "press_key", pick(action, ["pid", "window_id", "key", "delivery_mode"]));
      }
      case "hotkey": {
        const g = parts.keyCombo(action.keys);
        if (!g.ok) return blocked(rec, "key_combo", g.note);
        const guarded = inputGuards(rec, action);
        if (guarded) return guarded;
        const keys = typeof action.keys === "string" ? action.keys.split(/\s*\+\s*/).filter(Boolean) : action.keys;
        return sendInput(rec, "hotkey", { ...pick(action, ["pid", "window_id", "delivery_mode"]), keys });
      }
      case "set_window_frame": {
        const guarded = inputGuards(rec, action);
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

  function loopKind(action: HarnessAction): "observation" | "wait" | "mutation" {
    if (action.action === "wait") return "wait";
    if (action.action === "observe" || action.action === "list_windows" || action.action === "get_window_state") return "observation";
    if (action.action === "call" && isReadOnlyTool(action.tool, tools)) return "observation";
    return "mutation";
  }

  async function step(input: HarnessAction): Promise<StepResult> {
    const rec = new StepRecorder();
    const parsed = HarnessActionSchema.safeParse(input);
    if (!parsed.success) {
      const name = typeof (input as { action?: unknown })?.action === "string" ? String((input as { action: string }).action) : "";
      if (name && !HARNESS_ACTION_NAMES.includes(name as HarnessAction["action"])) {
        return blocked(rec, "unknown_action", nearestAction(name, HARNESS_ACTION_NAMES).note);
      }
      const issue = parsed.error.issues[0];
      return blocked(rec, "bad_action", `Bad ${name || "action"}: ${issue ? `${issue.path.join(".") || "action"}: ${issue.message}` : "invalid"}. Nothing was sent.`);
    }
    const action = parsed.data;
    const paused = checkLoopGuard(loop);
    if (!paused.ok) return rec.result({ decision: "paused", blockedBy: "loop_guard", note: paused.note });
    const notReady = await ready(rec);
    const result = notReady ?? (await run(rec, action));
    const kind = loopKind(action);
    const error = result.blockedBy ?? (result.verdict && result.verdict.outcome !== "confirmed" && result.verdict.outcome !== "unconfirmed" ? `${result.verdict.outcome}:${result.verdict.note}` : undefined);
    const sentCall = result.calls.filter((c) => c.purpose === "action").at(-1);
    const key = sentCall ? `${sentCall.tool} ${canonicalJson(sentCall.args)}` : canonicalJson(action);
    loop = recordLoopStep(loop, { kind, key, sent: sentCall !== undefined, failed: isFailedStep(result), ...(error ? { error } : {}) });
    const nowPaused = checkLoopGuard(loop);
    if (!nowPaused.ok && result.decision !== "blocked") return { ...result, note: `${result.note} ${nowPaused.note}` };
    return result;
  }

  async function batch(actions: readonly HarnessAction[]): Promise<BatchResult> {
    const size = checkBatchSize(actions.length);
    if (!size.ok) {
      const rec = new StepRecorder();
      return { decision: "blocked", steps: [blocked(rec, "batch_budget", size.note)], stoppedAt: 0, note: size.note };
    }
    const steps: StepResult[] = [];
    let waited = 0;
    for (const [i, action] of actions.entries()) {
      let result: StepResult;
      if (action.action === "wait") {
        const budget = checkWaitBudget({ usedMs: waited, waitMs: action.ms });
        result = budget.ok ? await step(action) : blocked(new StepRecorder(), "batch_budget", budget.note);
        if (budget.ok) waited += action.ms;
      } else {
        result = await step(action);
      }
      steps.push(result);
      if (isFailedStep(result)) {
        const note = `Stopped at step ${i + 1} of ${actions.length} (${action.action}): ${result.note}`;
        return { decision: result.decision, steps, stoppedAt: i, note };
      }
    }
    const worst = steps.reduce((w, s) => (rank(s.decision) > rank(w.decision) ? s : w), steps[0]!);
    return { decision: worst.decision, steps, note: `All ${actions.length} steps ran.${worst.decision === "done" ? "" : ` ${worst.note}`}` };
  }

  return {
    step,
    batch,
    resume() {
      loop = resumeLoopGuard();
    },
    get state(): HarnessSessionState {
      const s: HarnessSessionState = {
        started,
        suspect,
        rebuilds,
        revivals,
        loop: { ...loop },
        staleClick: { ...staleClick },
        frames: frameCount,
        observedWindows: [...observed].sort((a, b) => a - b),
      };
      if (freshStateRequired) s.freshStateRequired = freshStateRequired;
      if (unavailable) s.unavailable = unavailable;
      if (latestFrame) s.latestFrame = latestFrame;
      return s;
    },
  };
}

function rank(decision: StepResult["decision"]): number {
  return { done: 0, verify_fresh_state: 1, escalate: 2, blocked: 3, paused: 4 }[decision];
}
