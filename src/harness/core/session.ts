import type { Clock, Driver } from "#src/driver/port.js";
import type { HarnessAction, StepResult } from "#src/schema/harness-step.js";
import { createCallPolicy } from "./call-policy.js";
import type { LoopGuardState } from "./loop-guard.js";
import type { ObservationBudget } from "./observation.js";
import { createSessionActions } from "./session-actions.js";
import { defaultHarnessParts, type HarnessParts } from "./session-parts.js";
import { createSessionStore } from "./session-store.js";
import { createStepRunner, type BatchResult } from "./session-steps.js";
import type { StaleClickState } from "./stale-click.js";

export type { Frame } from "./session-store.js";
export type { BatchResult } from "./session-steps.js";

/** What a harness session runs on: its driver and clock, its label, contract and parts. */
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

/** What a harness session has seen and decided so far (started, suspect, rebuilds, the loop guard). */
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

/** A fail-closed harness session: one action at a time, or a batch, over a Driver (docs/sessions.md). */
export interface HarnessSession {
  step(action: HarnessAction): Promise<StepResult>;
  batch(actions: readonly HarnessAction[]): Promise<BatchResult>;
  /** Clears a loop-guard pause. */
  resume(): void;
  readonly state: HarnessSessionState;
}

/** The session label a harness session declares when none is given. */
export const DEFAULT_LABEL = "cua-contract-harness";

/**
 * The reference harness: executes one action at a time against a Driver and answers with a
 * decision. Fail-closed: an unknown outcome is never re-sent, the session is rebuilt before the
 * next call, and guards refuse input before anything is sent. Four parts do the work: the store
 * (what was seen), the call policy (every driver call), the action handlers (guards, then input),
 * and the step runner (the loop guard and batches).
 */
export function createHarnessSession(options: HarnessSessionOptions): HarnessSession {
  const parts: HarnessParts = { ...defaultHarnessParts, ...options.parts };
  const store = createSessionStore({ windowList: parts.windowList, ...(parts.compareFrames ? { compareFrames: parts.compareFrames } : {}) });
  const policy = createCallPolicy({
    driver: options.driver,
    label: options.label ?? DEFAULT_LABEL,
    declared: options.label !== undefined,
    timeoutMs: options.timeoutMs ?? 30_000,
    parts,
    ...(options.contract !== undefined ? { contract: options.contract } : {}),
    requireFreshState: (reason) => store.requireFreshState(reason),
  });
  const actions = createSessionActions({ store, policy, parts, clock: options.clock, ...(options.budget ? { budget: options.budget } : {}) });
  const runner = createStepRunner({ ready: (rec) => policy.ready(rec), run: (rec, action) => actions.run(rec, action), tools: () => policy.tools });

  return {
    step: (action) => runner.step(action),
    batch: (actions) => runner.batch(actions),
    resume: () => runner.resume(),
    get state(): HarnessSessionState {
      const { started, suspect, rebuilds, revivals, unavailable } = policy.state;
      const s: HarnessSessionState = {
        started,
        suspect,
        rebuilds,
        revivals,
        loop: { ...runner.loop },
        staleClick: { ...store.staleClick },
        frames: store.frameCount,
        observedWindows: store.observedWindows(),
      };
      if (store.freshStateRequired) s.freshStateRequired = store.freshStateRequired;
      if (unavailable) s.unavailable = unavailable;
      if (store.latestFrame) s.latestFrame = store.latestFrame;
      return s;
    },
  };
}
