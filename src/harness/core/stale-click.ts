import { PASS, type GuardResult } from "./guard-result.js";

/** Clicks on one target that were followed by an observation showing no visible change. */
export interface StaleClickState {
  target?: string;
  unchanged: number;
  /** The target of the last click, until an observation says whether the screen changed. */
  pending?: string;
}

/** Clicks in a row that left the screen unchanged before the guard refuses another. */
export const STALE_CLICK_LIMIT = 2;

/** The stale-click guard's state before any click. */
export function initialStaleClickState(): StaleClickState {
  return { unchanged: 0 };
}

/** Blocks a third click on the same target after two clicks with no visible change. */
export function checkStaleClick(state: StaleClickState, target: string): GuardResult {
  if (state.target !== target || state.unchanged < STALE_CLICK_LIMIT) return PASS;
  return {
    ok: false,
    code: "stale_click",
    note: `Clicked this target ${state.unchanged} times with no visible change. Do not click it again; try another way (another element, a key, or read the window again).`,
  };
}

/** A click was sent; a confirmed effect counts as a change straight away. */
export function recordClick(state: StaleClickState, target: string, confirmed: boolean): StaleClickState {
  if (confirmed) return { unchanged: 0 };
  return { ...state, pending: target };
}

/** An observation after a click: did the screen visibly change since the one before the click? */
export function recordObservation(state: StaleClickState, changed: boolean): StaleClickState {
  const pending = state.pending;
  if (pending === undefined) return state;
  if (changed) return { unchanged: 0 };
  const unchanged = state.target === pending ? state.unchanged + 1 : 1;
  return { target: pending, unchanged };
}
