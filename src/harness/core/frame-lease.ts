import { PASS, type GuardResult } from "./guard-result.js";
import type { WindowInfo, WindowList } from "./window-list.js";

/** What a screenshot's coordinates depend on: the visible top-level windows, their bounds and stacking, the active one. */
export interface Layout {
  windows: { window_id: number; x: number; y: number; width: number; height: number }[];
  active?: number;
}

/** The layout of the on-screen windows (position and size, top first), which the frame lease compares. */
export function layoutOf(windows: readonly WindowInfo[]): Layout {
  const visible = windows.filter((w) => w.on_screen);
  const ordered = [...visible].sort((a, b) => b.z_index - a.z_index || a.window_id - b.window_id);
  const layout: Layout = { windows: ordered.map(({ window_id, x, y, width, height }) => ({ window_id, x, y, width, height })) };
  const active = visible.find((w) => w.active === true);
  if (active) layout.active = active.window_id;
  return layout;
}

/** The first difference between two layouts, in words, or undefined when they match. */
export function layoutDifference(aimed: Layout, live: Layout): string | undefined {
  const liveIds = new Set(live.windows.map((w) => w.window_id));
  const aimedIds = new Set(aimed.windows.map((w) => w.window_id));
  const gone = aimed.windows.find((w) => !liveIds.has(w.window_id));
  if (gone) return `window ${gone.window_id} is gone`;
  const added = live.windows.find((w) => !aimedIds.has(w.window_id));
  if (added) return `window ${added.window_id} appeared`;
  for (const w of aimed.windows) {
    const now = live.windows.find((l) => l.window_id === w.window_id)!;
    if (now.x !== w.x || now.y !== w.y || now.width !== w.width || now.height !== w.height) {
      return `window ${w.window_id} moved or resized from ${w.width}x${w.height}+${w.x}+${w.y} to ${now.width}x${now.height}+${now.x}+${now.y}`;
    }
  }
  const order = (l: Layout) => l.windows.map((w) => w.window_id).join(",");
  if (order(aimed) !== order(live)) return "the stacking order changed";
  if (aimed.active !== live.active) return "the active window changed";
  return undefined;
}

/**
 * The layout lease: a coordinate action may only be sent while the live layout matches the one
 * its screenshot was taken from. An untrusted live list cannot confirm the lease, so it refuses too.
 */
export function checkFrameLease(options: { aimed: Layout | undefined; aimedComplete?: boolean; live: WindowList }): GuardResult {
  const { aimed, live } = options;
  if (!aimed) return { ok: false, code: "stale_gui_frame", note: "The coordinates name no known observation. Observe, then aim from that observation." };
  if (options.aimedComplete === false) {
    return {
      ok: false,
      code: "stale_gui_frame",
      note: "The observation the coordinates were aimed from was partial, so it cannot vouch for them. Observe again. No input was sent.",
    };
  }
  if (live.status !== "complete") {
    return {
      ok: false,
      code: "stale_gui_frame",
      note: `The live layout could not be confirmed (${live.reason ?? live.status}). No input was sent; observe again.`,
    };
  }
  const diff = layoutDifference(aimed, layoutOf(live.windows));
  if (!diff) return PASS;
  return {
    ok: false,
    code: "stale_gui_frame",
    note: `The desktop layout changed since the observation the coordinates were aimed from (${diff}). No input was sent; aim again from the fresh observation.`,
  };
}
