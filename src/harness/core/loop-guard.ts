import { PASS, type GuardResult } from "./guard-result.js";

/** The loop guard's limits: the same action, the same error, and failures in a row. */
export const LOOP_LIMITS = { sameAction: 6, sameError: 8, failures: 14 } as const;

/** What the loop guard counts between steps, and why it paused. */
export interface LoopGuardState {
  lastAction?: string;
  sameAction: number;
  lastError?: string;
  sameError: number;
  failures: number;
  /** Why the loop guard paused the run; cleared by resume. */
  paused?: string;
}

/** A step as the loop guard sees it. Observations and waits never count. */
export interface LoopStep {
  kind: "observation" | "wait" | "mutation" | "other";
  /** Identity of the action (tool + canonical arguments). */
  key: string;
  failed: boolean;
  /** Identity of the error when it failed (code or guard id). */
  error?: string;
  /** False when a guard refused the step and nothing was sent: it neither extends nor breaks a same-action streak. */
  sent?: boolean;
}

/** The loop guard's state before any step. */
export function initialLoopGuardState(): LoopGuardState {
  return { sameAction: 0, sameError: 0, failures: 0 };
}

/** Refuses the next step while the loop guard is paused. */
export function checkLoopGuard(state: LoopGuardState): GuardResult {
  if (!state.paused) return PASS;
  return { ok: false, code: "loop_guard", note: `Paused: ${state.paused}. This looks like a loop, not progress; stop and rethink, or resume deliberately.` };
}

/** Pauses after the same mutation 6 times, the same error 8 times, or 14 failures in a row. */
export function recordLoopStep(state: LoopGuardState, step: LoopStep): LoopGuardState {
  if (step.kind === "observation" || step.kind === "wait") return state;
  const next: LoopGuardState = { ...state };
  if (step.kind === "mutation" && step.sent !== false) {
    next.sameAction = state.lastAction === step.key ? state.sameAction + 1 : 1;
    next.lastAction = step.key;
  }
  if (step.failed) {
    const err = step.error ?? "error";
    next.sameError = state.lastError === err ? state.sameError + 1 : 1;
    next.lastError = err;
    next.failures = state.failures + 1;
  } else {
    next.sameError = 0;
    delete next.lastError;
    next.failures = 0;
  }
  if (next.sameAction >= LOOP_LIMITS.sameAction) next.paused ??= `the same action was sent ${next.sameAction} times in a row`;
  if (next.sameError >= LOOP_LIMITS.sameError) next.paused ??= `the same error came back ${next.sameError} times in a row`;
  if (next.failures >= LOOP_LIMITS.failures) next.paused ??= `${next.failures} steps failed in a row`;
  return next;
}

/** A loop-guard state with the pause cleared and the counts reset. */
export function resumeLoopGuard(): LoopGuardState {
  return initialLoopGuardState();
}
