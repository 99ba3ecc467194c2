import { layoutDifference, layoutOf, type Layout } from "./frame-lease.js";
import type { HarnessParts } from "./session-parts.js";
import { initialStaleClickState, recordClick, recordObservation, type StaleClickState } from "./stale-click.js";
import { windowChanged } from "./visible-change.js";
import type { WindowList, WindowListPolicy } from "./window-list.js";
import type { WindowState } from "./window-state.js";

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

/** What the session has seen: frames, window lists and states, snapshots, and whether input needs a fresh look. */
export interface SessionStore {
  readonly frameCount: number;
  readonly latestFrame: string | undefined;
  readonly lastList: WindowList | undefined;
  readonly staleClick: StaleClickState;
  /** Why input is refused until the next fresh observation, if it is. */
  readonly freshStateRequired: string | undefined;
  frame(id: string): Frame | undefined;
  newFrame(layout: Layout, complete: boolean, window?: WindowState): Frame;
  noteList(list: WindowList): void;
  /** Notes a window read; `false` when it settled a pending click as changing nothing visible. */
  noteWindow(state: WindowState): Promise<boolean | undefined>;
  /** An observation after a click that was not confirmed: did the screen visibly change? */
  /** Whether the pending click visibly changed the screen (undefined: this read cannot tell, or no click is pending). */
  settlePendingClick(change: { window?: WindowState; list?: WindowList }): Promise<boolean | undefined>;
  /** A click was sent and answered; unless confirmed, the next look at its window settles it. */
  noteClick(click: { target: string; confirmed: boolean; window?: number | undefined }): void;
  isObserved(window: number): boolean;
  observedWindows(): number[];
  /** The window state an element token was read from (`<snapshot>:<index>`). */
  snapshotOf(token: string): WindowState | undefined;
  /** The driver refused a token of this snapshot as stale: its tokens stay refused until a read hands the snapshot out again. */
  retireSnapshot(token: string): void;
  /** Why a token would be refused again, if its snapshot was retired. */
  retiredBecause(token: string): string | undefined;
  requireFreshState(reason: string): void;
  freshStateSeen(): void;
}

export function createSessionStore(options: { windowList: WindowListPolicy; compareFrames?: HarnessParts["compareFrames"] }): SessionStore {
  let staleClick = initialStaleClickState();
  let pendingClick: { window?: number | undefined; before?: WindowState | undefined; layout?: Layout | undefined } | undefined;
  let observed = new Set<number>();
  let lastList: WindowList | undefined;
  let frameCount = 0;
  let latestFrame: string | undefined;
  let freshStateRequired: string | undefined;
  const frames = new Map<string, Frame>();
  const snapshots = new Map<string, WindowState>();
  const retired = new Map<string, string>();
  const windowStates = new Map<number, WindowState>();

  async function settlePendingClick(change: { window?: WindowState; list?: WindowList }): Promise<boolean | undefined> {
    if (!pendingClick) return undefined;
    let changed: boolean | undefined;
    if (change.window && pendingClick.before && change.window.window_id === pendingClick.window) {
      changed = await windowChanged(pendingClick.before, change.window, options.compareFrames);
    } else if (change.list?.status === "complete" && pendingClick.layout && layoutDifference(pendingClick.layout, layoutOf(change.list.windows))) {
      changed = true;
    }
    if (changed === undefined) return undefined;
    staleClick = recordObservation(staleClick, changed);
    pendingClick = undefined;
    return changed;
  }

  return {
    get frameCount() {
      return frameCount;
    },
    get latestFrame() {
      return latestFrame;
    },
    get lastList() {
      return lastList;
    },
    get staleClick() {
      return staleClick;
    },
    get freshStateRequired() {
      return freshStateRequired;
    },
    frame: (id) => frames.get(id),
    newFrame(layout, complete, window) {
      frameCount += 1;
      const frame: Frame = { id: `obs-${frameCount}`, layout, complete };
      if (window) frame.window = window;
      frames.set(frame.id, frame);
      latestFrame = frame.id;
      return frame;
    },
    noteList(list) {
      lastList = list;
      observed = options.windowList.windowsAfter(list, observed);
    },
    async noteWindow(state) {
      if (state.failed || state.window_id === undefined) return undefined;
      // settled against the read before this one, then this one becomes the latest
      const before = pendingClick;
      const changed = before ? await settlePendingClick({ window: state }) : undefined;
      observed.add(state.window_id);
      windowStates.set(state.window_id, state);
      if (state.snapshot_id) {
        snapshots.set(state.snapshot_id, state);
        retired.delete(state.snapshot_id);
      }
      return changed;
    },
    settlePendingClick,
    noteClick({ target, confirmed, window }) {
      staleClick = recordClick(staleClick, target, confirmed);
      pendingClick = confirmed
        ? undefined
        : {
            window,
            before: window !== undefined ? windowStates.get(window) : undefined,
            layout: lastList?.status === "complete" ? layoutOf(lastList.windows) : undefined,
          };
    },
    isObserved: (window) => observed.has(window),
    observedWindows: () => [...observed].sort((a, b) => a - b),
    snapshotOf: (token) => snapshots.get(token.split(":")[0]!),
    retireSnapshot(token) {
      retired.set(token.split(":")[0]!, token);
    },
    retiredBecause: (token) => retired.get(token.split(":")[0]!),
    requireFreshState(reason) {
      freshStateRequired = reason;
    },
    freshStateSeen() {
      freshStateRequired = undefined;
    },
  };
}
